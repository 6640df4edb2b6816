"""placement.py: does where a buffer lands decide the time of an L2-resident
4K-element kernel? (docs/verdicts.md, "Where the spread comes from")

Run on the GPU machine: python3 docs/verdicts/placement.py
It times a 4K-element fp32 add (a CUDA graph of 400 launches, 30 replays,
median per launch) on buffers at 24 different places of one large
allocation, spaced 2 MiB + 4 KiB apart, in one process; a process-level
bimodality caused by placement shows up here as two clusters of offsets.
"""
import json, statistics, sys
import torch

n = 4096
stride = (2 << 20) + 4096          # bytes between buffer sets
sets = 24
pool = torch.empty(sets * stride * 3 // 4 + 3 * n, dtype=torch.float32, device="cuda")
step = stride // 4
res = []
for i in range(sets):
    base = i * step
    a = pool[base:base + n]; b = pool[base + n:base + 2 * n]; c = pool[base + 2 * n:base + 3 * n]
    a.uniform_(); b.uniform_()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):
            torch.add(a, b, out=c)
        with torch.cuda.graph(g, stream=s):
            for _ in range(400):
                torch.add(a, b, out=c)
    torch.cuda.synchronize()
    times = []
    for _ in range(30):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record(); g.replay(); e1.record(); e1.synchronize()
        times.append(e0.elapsed_time(e1) * 1000 / 400)
    res.append({"set": i, "addr_mod_2M": (a.data_ptr() % (2 << 20)), "addr": hex(a.data_ptr()), "us": statistics.median(times),
                "cv": statistics.stdev(times) / statistics.mean(times)})
meds = [r["us"] for r in res]
print(json.dumps({"gpu": torch.cuda.get_device_name(), "per_set": res,
                  "min": min(meds), "max": max(meds), "spread_max_over_min": max(meds) / min(meds) - 1}, indent=1))
