"""PyTorch eager reference for perfgate's elementwise add and gelu (fp32).

Run on the same GPU in the same job as perfgate (docs/results/device-run.sh):
it times torch.add(out=) and F.gelu(approximate="tanh") the way perfgate
times its kernels (CUDA events; cold = a 2x L2 memset before each sample,
outside the timed region; batch = N back-to-back launches per event pair,
N sized so one sample lasts >= 1 ms) and prints JSON records.
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F

SIZES = [1 << 20, 16 << 20, 256 << 20]


def timed(fn, reps, flush=None):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    if flush is not None:
        flush.fill_(1.0)
    start.record()
    for _ in range(reps):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1000 / reps  # us per launch


def measure(fn, flush):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    one = min(timed(fn, 1) for _ in range(5))
    n = max(1, int(1000 / max(one, 1e-3)) + 1)
    cold = [timed(fn, 1, flush) for _ in range(300)]
    batch = [timed(fn, n) for _ in range(60)]
    return statistics.median(cold), statistics.median(batch), n


def main():
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device=dev)
    out = []
    for n in SIZES:
        a = torch.rand(n, device=dev) * 4 - 2
        b = torch.rand(n, device=dev) * 4 - 2
        o = torch.empty_like(a)
        ops = {
            "add": lambda: torch.add(a, b, out=o),
            "gelu": lambda: F.gelu(a, approximate="tanh"),
        }
        for name, fn in ops.items():
            cold, batch, reps = measure(fn, flush)
            out.append({"op": name, "n": n, "dtype": "fp32", "cold_us": cold, "batch_us": batch, "batch_n": reps})
        del a, b, o
        torch.cuda.empty_cache()
    json.dump({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "results": out}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
