#!/usr/bin/env python3
"""Writes target/criterion/ in Criterion.rs's documented on-disk format.

Criterion cannot run here (crates.io is unreachable), so this tree is built
from the format as Criterion.rs writes it: bheisler/criterion.rs
src/analysis/mod.rs saves SavedSample {sampling_mode, iters, times} to
<directory_name>/new/sample.json (times: nanoseconds for all iters of a
sample), the BenchmarkId (src/report.rs: group_id, function_id, value_str,
throughput, full_id, directory_name, title) to new/benchmark.json, and the
estimates to new/estimates.json; `--save-baseline`/earlier runs live in base/.
The numbers are synthetic but shaped like a Linear-sampling run:
iters = d, 2d, …, and times grow with them. Run from this directory.
"""
import json, os, random

random.seed(42)

def bench(group, function, value, per_iter_ns, throughput=None, n=10):
    parts = [p for p in (group, function, value) if p is not None]
    full_id = "/".join(parts)
    d = os.path.join("target", "criterion", *parts, "new")
    os.makedirs(d, exist_ok=True)
    iters = [float(3 * (i + 1)) for i in range(n)]
    times = [it * per_iter_ns * random.uniform(0.97, 1.05) for it in iters]
    json.dump({"sampling_mode": "Linear", "iters": iters, "times": times}, open(os.path.join(d, "sample.json"), "w"))
    json.dump({"group_id": group, "function_id": function, "value_str": value, "throughput": throughput,
               "full_id": full_id, "directory_name": full_id, "title": full_id}, open(os.path.join(d, "benchmark.json"), "w"))
    avg = sorted(t / i for t, i in zip(times, iters))
    est = lambda v: {"confidence_interval": {"confidence_level": 0.95, "lower_bound": v * 0.99, "upper_bound": v * 1.01},
                     "point_estimate": v, "standard_error": v * 0.005}
    json.dump({"mean": est(sum(avg) / n), "median": est(avg[n // 2]), "median_abs_dev": est(avg[n // 2] * 0.01),
               "slope": est(avg[n // 2]), "std_dev": est(avg[n // 2] * 0.02)}, open(os.path.join(d, "estimates.json"), "w"))

bench("fib", "recursive", "20", 26500.0)
bench("memcpy", None, "4096", 120.0, throughput={"Bytes": 4096})
# A previous baseline next to new/ must be ignored.
bench("fib", "recursive", "20", 99999.0)
os.rename("target/criterion/fib/recursive/20/new", "target/criterion/fib/recursive/20/base")
bench("fib", "recursive", "20", 26500.0)
