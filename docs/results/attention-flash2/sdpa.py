"""PyTorch's scaled_dot_product_attention on the attention suite's prefill shapes, for flash2's comparison.

For each (B, H, S, d[, H_kv]), dtype and mask it times SDPA as PyTorch picks
its backend by default, and under sdpa_kernel() with FLASH_ATTENTION
(FlashAttention-2) and CUDNN_ATTENTION, with CUDA events in perfgate's two
modes: cold (a 2×L2 memset before each call, outside the timed region) and
batch (N calls back to back per event pair, N sized so a sample lasts about
2 ms). Medians of 15 samples, in µs, as JSON lines on standard output.
Inputs: torch.manual_seed(42), uniform [-2, 2), [B, H, S, d] contiguous.
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(8, 16, 2048, 128, 16), (1, 32, 4096, 128, 32), (4, 32, 2048, 128, 8)]
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
BACKENDS = {"default": None, "flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}


def sample(fn, reps, flush):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if flush is not None:
        flush.zero_()
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) * 1e3 / reps


def main():
    torch.manual_seed(42)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
    for (b, h, s, d, hkv) in SHAPES:
        for dname, dt in DTYPES.items():
            q = torch.empty(b, h, s, d, dtype=dt, device="cuda").uniform_(-2, 2)
            k = torch.empty(b, hkv, s, d, dtype=dt, device="cuda").uniform_(-2, 2)
            v = torch.empty(b, hkv, s, d, dtype=dt, device="cuda").uniform_(-2, 2)
            for causal in (False, True):
                for bname, be in BACKENDS.items():
                    def call():
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=hkv != h)
                    rec = {"b": b, "h": h, "s": s, "d": d, "hkv": hkv, "dtype": dname, "causal": causal, "backend": bname}
                    try:
                        if be is None:
                            fn = call
                        else:
                            def fn(be=be):
                                with sdpa_kernel(be):
                                    return call()
                        for _ in range(3):
                            fn()
                        torch.cuda.synchronize()
                        one = sample(fn, 3, None)
                        reps = max(1, int(2000 / max(one, 1)))
                        rec["batch_us"] = statistics.median(sample(fn, reps, None) for _ in range(15))
                        rec["cold_us"] = statistics.median(sample(fn, 1, flush) for _ in range(15))
                    except Exception as e:  # a backend this build or shape lacks
                        rec["error"] = str(e).splitlines()[0][:200]
                    print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    sys.exit(main())
