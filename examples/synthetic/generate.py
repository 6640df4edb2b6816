#!/usr/bin/env python3
"""Generate perfgate's synthetic demo data (Python 3 standard library only).

Writes examples/synthetic/history/*.json, five main-branch push runs on one H100
testbed, and examples/synthetic/pr.json, a pull-request run of branch
kernels/half2-vectorize with:

  * a regression:  elementwise/gelu/dtype=fp16/n=16M/mode=batch  ~ +18 %
  * an improvement: elementwise/add/dtype=fp16/n=16M/mode=batch  ~ -15 %
  * a noisy benchmark: microbatch/launch_per_op/n=256/ops=10000/mode=batch,
    CV ~ 12 % and ~ +7 %: inconclusive, so perfgate warns
  * everything else unchanged (run-to-run drift well under 1 %).

The output is deterministic (fixed seed; fixed times and IDs): rerunning the
script rewrites the same bytes. Run it from anywhere:

    python3 examples/synthetic/generate.py

The data is synthetic; benchmark names, units, metrics and env keys follow
what `perfgate run` writes for the built-in suites (kernels/suites.go,
kernels/suite/results.go), and the figures are plausible for an H100 SXM.
"""

import datetime
import hashlib
import json
import math
import os
import random
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "acme/kernels"
TESTBED = "gpu-h100-1"
NAMESPACE = uuid.UUID("6f1c2f0e-3b5d-4e8a-9c7b-2d4e6f8a0b1c")
COPY_CEILING_GBPS = 2968.4

ENV = {
    "gpu": "NVIDIA H100 80GB HBM3",
    "driver": "580.95.05",
    "cuda": "13.0",
    "nvrtc": "13.0",
    "cuda_header": "13.0",
    "compute_capability": "9.0",
    "sm_count": "132",
    "memory_bytes": "85520809984",
    "l2_bytes": "52428800",
    "gpu_uuid": "GPU-5d3c6a1e-8f0b-4c2d-a7e9-1b3f5c7d9e20",
    "pci_bus_id": "00000000:19:00.0",
    "ecc": "enabled",
    "mig": "disabled",
    "persistence": "enabled",
    "compute_mode": "exclusive_process",
    "power_limit_w": "700",
    "sm_clock_mhz": "1980",
    "sm_clock_max_mhz": "1980",
    "mem_clock_mhz": "2619",
    "mem_clock_max_mhz": "2619",
    "clock_event_reasons": "none",
    "gpu_other_processes": "none",
    "nvml": "yes",
    "copy_ceiling_gbps": "%.1f" % COPY_CEILING_GBPS,
    "cpu": "AMD EPYC 9454 48-Core Processor",
    "go": "go1.26.8",
    "perfgate": "v0.1.0",
}

MB = 1 << 20


# Each benchmark: suite, op, ordered params (name segments), exact n,
# median in microseconds, run-to-run CV, bytes moved per launch (0: none),
# samples per run.
def benchmarks():
    out = []
    for op in ("memcpy_dtod", "copy_float4"):
        med = 2 * (1 << 30) / (COPY_CEILING_GBPS * 1e3) * (1.0 if op == "memcpy_dtod" else 1.012)
        out.append(("memory", op, [("bytes", "1G")], 1 << 28, med, 0.003, 2 * (1 << 30), 30))
    elementwise = [  # op, dtype, n, tensors moved, launch floor (us)
        ("add", "fp32", 16 * MB, 3), ("add", "fp16", 16 * MB, 3), ("add", "fp32", 1 * MB, 3),
        ("gelu", "fp32", 16 * MB, 2), ("gelu", "fp16", 16 * MB, 2), ("gelu", "bf16", 16 * MB, 2),
        ("relu", "fp32", 4096, 2),
    ]
    for op, dt, n, tensors in elementwise:
        size = 4 if dt == "fp32" else 2
        moved = tensors * n * size
        med = 2.6 + moved / (COPY_CEILING_GBPS * 0.93 * 1e3)
        cv = 0.004 if n >= MB else 0.02
        label = "%dM" % (n // MB) if n >= MB else "%dK" % (n // 1024)
        out.append(("elementwise", op, [("dtype", dt), ("n", label)], n, med, cv, moved, 40))
    for mode, med in (("launch_per_op", 22410.0), ("cuda_graph", 9480.0), ("persistent", 1392.0)):
        out.append(("microbatch", mode, [("n", "256"), ("ops", "10000")], 256, med, 0.03 if mode == "launch_per_op" else 0.006, 0, 20))
    for variant, med in (("unfused", 11950.0), ("fused", 2615.0)):
        out.append(("mixedops", variant, [("n", "64K"), ("iters", "1000")], 65536, med, 0.006, 0, 20))
    return out


REGRESSION = "elementwise/gelu/dtype=fp16/n=16M/mode=batch"
IMPROVEMENT = "elementwise/add/dtype=fp16/n=16M/mode=batch"
NOISY = "microbatch/launch_per_op/n=256/ops=10000/mode=batch"

# In the PR run: multiplicative change of the median and the CV used.
PR_CHANGES = {REGRESSION: (1.18, None), IMPROVEMENT: (0.85, None), NOISY: (1.07, 0.12)}


def name(op, params):
    return "/".join([op] + ["%s=%s" % kv for kv in params] + ["mode=batch"])


def samples(rng, median, cv, count):
    """Right-skewed timings: lognormal around the median, a few slow outliers."""
    xs = []
    for _ in range(count):
        x = median * math.exp(rng.gauss(0, cv))
        if rng.random() < 0.03:
            x *= 1 + rng.uniform(0.04, 0.15)  # a preempted launch, a late clock boost
        xs.append(round(x, 3))
    return xs


def benchmark(rng, spec, drift, pr):
    suite, op, params, n, med, cv, moved, count = spec
    key = suite + "/" + name(op, params)
    factor, pr_cv = PR_CHANGES.get(key, (1.0, None)) if pr else (1.0, None)
    cv = pr_cv or cv
    xs = samples(rng, med * drift * factor, cv, count)
    s = sorted(xs)
    m = (s[len(s) // 2] + s[(len(s) - 1) // 2]) / 2
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    metrics = {"median_us": round(m, 3), "cv": round(sd / mean, 5), "samples_taken": float(count), "clock_drops": 0.0,
               "sm_clock_mhz": 1980.0}
    if moved:
        gbps = moved / (m * 1e3)
        metrics["gbps"] = round(gbps, 1)
        metrics["pct_of_copy"] = round(100 * gbps / COPY_CEILING_GBPS, 1)
    stop = "rel-std %.3f%% <= 1.00%%" % (100 * sd / mean) if sd / mean <= 0.01 else "max-samples %d (rel-std %.3f%%)" % (count, 100 * sd / mean)
    par = {k: v for k, v in params}
    par["n"] = str(n)
    par["mode"] = "batch"
    return {
        "suite": suite, "name": name(op, params), "params": par, "unit": "us", "better": "lower",
        "samples": xs, "metrics": metrics,
        "info": {"mode": "batch", "stop": stop, "batch_n": "20" if med < 100 else "1", "warmup": "200ms"},
    }


def run_doc(rng, run_id, commit, branch, event, pr, started, drift, temperature):
    env = dict(ENV, temperature_c=str(temperature))
    run = {"id": run_id, "repo": REPO, "commit": commit, "branch": branch}
    if pr:
        run["pr"] = pr
    run.update({"event": event, "testbed": TESTBED, "started_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "env": env})
    return {"schema": "perfgate.results/v1", "run": run,
            "benchmarks": [benchmark(rng, b, drift, pr) for b in benchmarks()]}


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    rng = random.Random(20261121)
    start = datetime.datetime(2026, 11, 16, 3, 12, tzinfo=datetime.timezone.utc)
    hist = os.path.join(HERE, "history")
    for i in range(5):
        commit = hashlib.sha1(b"main-%d" % i).hexdigest()
        started = start + datetime.timedelta(days=i, minutes=7 * i)
        run_id = str(uuid.uuid5(NAMESPACE, "main-%d" % i))
        drift = math.exp(rng.gauss(0, 0.003))
        doc = run_doc(rng, run_id, commit, "main", "push", 0, started, drift, 37)
        write(os.path.join(hist, "%s-%s.json" % (started.strftime("%Y-%m-%d"), commit[:8])), doc)
    started = datetime.datetime(2026, 11, 21, 10, 4, tzinfo=datetime.timezone.utc)
    commit = hashlib.sha1(b"pr-42").hexdigest()
    doc = run_doc(rng, str(uuid.uuid5(NAMESPACE, "pr-42")), commit, "kernels/half2-vectorize", "pull_request", 42,
                  started, math.exp(rng.gauss(0, 0.003)), 37)
    write(os.path.join(HERE, "pr.json"), doc)


if __name__ == "__main__":
    main()
