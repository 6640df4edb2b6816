"""pgspread.py: between-process spread of perfgate results files.
Usage: python3 pgspread.py LABEL FILE... ; prints per benchmark the SD (%) of
the log medians across the files, and the median / 90th percentile / max."""
import json, math, statistics as st, sys
label, files = sys.argv[1], sys.argv[2:]
runs = []
for f in files:
    d = json.load(open(f))
    runs.append({b["suite"] + "/" + b["name"]: st.median(b["samples"]) for b in d["benchmarks"] if b.get("samples")})
keys = sorted(set.intersection(*(set(r) for r in runs)))
sds = sorted(((100 * st.stdev([math.log(r[k]) for r in runs]), k) for k in keys), reverse=True)
v = sorted(s for s, _ in sds)
print(f"{label}: {len(files)} processes, {len(keys)} benchmarks; SD of log medians: median {st.median(v):.2f}%, p90 {v[int(0.9 * (len(v) - 1))]:.2f}%, max {v[-1]:.2f}%")
for s, k in sds[:12]:
    print(f"   {s:5.2f}%  {k}  " + " ".join(f"{r[k]:.3f}" for r in runs))
