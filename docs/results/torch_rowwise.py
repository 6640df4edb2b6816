"""PyTorch side-by-side reference for perfgate's rowwise, gemm and elementwise suites.

Run on the same GPU in the same job as perfgate (docs/results/device-rowwise.sh):

    python3 torch_rowwise.py time perfgate.json > torch.json   # times the same cases in PyTorch
    python3 torch_rowwise.py table perfgate.json torch.json    # ratio table (Markdown)

`time` reads perfgate's results, and for every benchmark of the rowwise,
gemm and elementwise suites times the PyTorch equivalent the way perfgate times (CUDA events;
cold: a 2x L2 memset before each sample, outside the timed region; batch: N
back-to-back calls per event pair, one sample >= 1 ms), and measures the peak
device memory PyTorch's allocator held for inputs, outputs and temporaries.
Inputs are uniform in perfgate's ranges; the timings do not depend on values.
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F

SUITES = ("rowwise", "gemm", "elementwise")
DT = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


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
    return start.elapsed_time(stop) * 1000 / reps  # us per call


def measure(fn, flush, modes):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    one = min(timed(fn, 1) for _ in range(5))
    n = max(1, int(1000 / max(one, 1e-3)) + 1)
    out = {}
    if "cold" in modes:
        k = 200 if one < 2000 else 40
        s = [timed(fn, 1, flush) for _ in range(k)]
        out["cold"] = (statistics.median(s), statistics.pstdev(s) / statistics.mean(s))
    if "batch" in modes:
        s = [timed(fn, n) for _ in range(30)]
        out["batch"] = (statistics.median(s), statistics.pstdev(s) / statistics.mean(s))
    return out, n


def rowwise_fn(op, dt, rows, dim, keep, dev):
    x = torch.rand(rows, dim, device=dev, dtype=DT[dt]) * 4 - 2
    if op == "layernorm":
        w = torch.rand(dim, device=dev, dtype=DT[dt]) + 0.5
        b = torch.rand(dim, device=dev, dtype=DT[dt]) - 0.5
        return lambda: F.layer_norm(x, (dim,), w, b, eps=1e-5)
    if op == "rmsnorm":
        w = torch.rand(dim, device=dev, dtype=DT[dt]) + 0.5
        return lambda: F.rms_norm(x, (dim,), w, eps=1e-5)
    if op == "softmax":
        return lambda: torch.softmax(x, dim=-1)
    if op == "dropout":
        return lambda: F.dropout(x, p=1 - keep, training=True)
    if op == "mse":
        y = torch.rand(rows, dim, device=dev, dtype=DT[dt]) * 4 - 2
        return lambda: F.mse_loss(x, y)
    if op == "cross_entropy":
        t = torch.randint(0, dim, (rows,), device=dev)
        return lambda: F.cross_entropy(x, t)
    raise ValueError(op)


def elementwise_fn(op, dt, n, dev):
    a = torch.rand(n, device=dev, dtype=DT[dt]) * 4 - 2
    b = torch.rand(n, device=dev, dtype=DT[dt]) * 1.5 + 0.5
    o = torch.empty_like(a)
    return {
        "add": lambda: torch.add(a, b, out=o),
        "mul": lambda: torch.mul(a, b, out=o),
        "div": lambda: torch.div(a, b, out=o),
        "relu": lambda: torch.relu(a),
        "sigmoid": lambda: torch.sigmoid(a, out=o),
        "gelu": lambda: F.gelu(a, approximate="tanh"),
        "swish": lambda: F.silu(a),
    }[op]


def gemm_fn(dt, tf32, m, n, k, dev):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.rand(m, k, device=dev, dtype=DT[dt]) * 2 - 1
    b = torch.rand(k, n, device=dev, dtype=DT[dt]) * 2 - 1
    return lambda: torch.matmul(a, b)


def case_key(b):
    p = b["params"]
    op = b["name"].split("/")[0]
    if b["suite"] == "gemm":
        op = "matmul"  # cublas and tiled compare with the same torch.matmul
    return (b["suite"], op, p.get("dtype"), p.get("tf32", ""), p.get("shape") or p.get("n"))


def time_cases(path):
    res = json.load(open(path))
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device=dev)
    cases = {}
    for b in res["benchmarks"]:
        if b["suite"] in SUITES and not b.get("error"):
            cases.setdefault(case_key(b), set()).add(b["params"]["mode"])
    out = []
    for (suite, op, dt, tf32, shape), modes in sorted(cases.items()):
        dims = [int(v) for v in str(shape).split("x")]
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        if suite == "elementwise":
            fn = elementwise_fn(op, dt, dims[0], dev)
        elif suite == "gemm":
            fn = gemm_fn(dt, tf32 == "on", dims[0], dims[1], dims[2], dev)
        else:
            rows, dim = (dims[0] * dims[1], dims[2]) if len(dims) == 3 else (dims[0], dims[1])
            fn = rowwise_fn(op, dt, rows, dim, 0.9, dev)
        fn()
        torch.cuda.synchronize()
        peak = (torch.cuda.max_memory_allocated() - base) / 2**20
        t, n = measure(fn, flush, modes)
        for mode, (med, cv) in t.items():
            out.append({"suite": suite, "op": op, "dtype": dt, "tf32": tf32, "shape": shape, "mode": mode,
                        "median_us": med, "cv": cv, "batch_n": n, "peak_mem_mb": peak})
        del fn
    torch.backends.cuda.matmul.allow_tf32 = False
    json.dump({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "results": out}, sys.stdout, indent=1)


def category(r):
    # The categories for a speedup against a reference.
    return "excellent" if r >= 0.8 else "good" if r >= 0.5 else "fair" if r >= 0.2 else "needs work"


def table(pg_path, torch_path):
    pg = json.load(open(pg_path))
    tr = {(r["suite"], r["op"], r["dtype"], r["tf32"], r["shape"], r["mode"]): r for r in json.load(open(torch_path))["results"]}
    print("| benchmark | mode | perfgate µs | CV | torch µs | torch/perfgate | % of copy | % of peak | vs cuBLAS | mem MB perfgate / torch |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for b in pg["benchmarks"]:
        if b["suite"] not in SUITES:
            continue
        mode = b["params"]["mode"]
        name = b["suite"] + "/" + b["name"].rsplit("/mode=", 1)[0]
        if b.get("error"):
            print(f"| {name} | {mode} | ERROR: {b['error'][:80]} |||||||||")
            continue
        m = b["metrics"]
        t = tr.get(case_key(b) + (mode,))
        ratio = f"{t['median_us'] / m['median_us']:.3f}" if t else "–"
        tus = f"{t['median_us']:.2f}" if t else "–"
        tmem = f"{t['peak_mem_mb']:.0f}" if t else "–"
        copy = f"{m['pct_of_copy']:.1f}" if "pct_of_copy" in m and b["suite"] != "gemm" else ""
        peak = f"{m['pct_of_peak']:.1f}" if "pct_of_peak" in m else ""
        vs = m.get("speedup_vs_cublas")
        vs = f"{100 * vs:.1f}% ({category(vs)})" if vs else ""
        print(f"| {name} | {mode} | {m['median_us']:.2f} | {100 * m.get('cv', 0):.2f}% | {tus} | {ratio} | {copy} | {peak} | {vs} | "
              f"{m.get('peak_mem_mb', 0):.0f} / {tmem} |")


if __name__ == "__main__":
    if sys.argv[1] == "time":
        time_cases(sys.argv[2])
    else:
        table(sys.argv[2], sys.argv[3])
