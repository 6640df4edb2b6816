"""jobspread.py: the job-to-job spread of the default PR run.

Usage: python3 jobspread.py DIR [LABEL]
DIR holds job-N/round-M.json (perfgate run --rounds 3 --out DIR/job-N/). Per
benchmark, a job's value is the mean of its rounds' log medians; the spread
is the standard deviation of those job means across jobs (in %, on the log
scale). Prints its median, 90th percentile and maximum over all benchmarks,
per suite, and the worst benchmarks with their job means."""
import glob, json, math, os, re, statistics as st, sys

d = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else d
jobs = {}
for jd in sorted((p for p in glob.glob(os.path.join(d, "job-*")) if os.path.isdir(p)), key=lambda p: int(p.rsplit("-", 1)[1])):
    rounds = []
    for f in sorted(f for f in glob.glob(os.path.join(jd, "round-*.json")) if re.search(r"round-\d+\.json$", f)):
        doc = json.load(open(f))
        rounds.append({b["suite"] + "/" + b["name"]: st.median(b["samples"])
                       for b in doc["benchmarks"] if b.get("samples") and not b.get("error")})
    if rounds:
        jobs[os.path.basename(jd)] = rounds
keys = sorted(set.intersection(*(set(r) for rs in jobs.values() for r in rs)))
rows = []
for k in keys:
    means = [st.mean(math.log(r[k]) for r in rs) for rs in jobs.values()]
    within = st.median(100 * st.stdev([math.log(r[k]) for r in rs]) for rs in jobs.values() if len(rs) > 1)
    rows.append((100 * st.stdev(means), within, k, [math.exp(m) for m in means]))
rows.sort(reverse=True)

def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(math.ceil(p * len(v))) - 1)]

def line(name, rs):
    v = [r[0] for r in rs]
    if not v:
        return f"{name:14s}    0"

    return f"{name:14s} {len(v):4d}  median {st.median(v):5.2f}%  p90 {q(v, 0.9):5.2f}%  max {max(v):5.2f}%"

print(f"{label}: {len(jobs)} jobs x {len(next(iter(jobs.values())))} rounds, {len(keys)} benchmarks; "
      "SD across jobs of the job means (log scale)")
print(line("all", rows))
for s in sorted({k.split("/")[0] for k in keys}):
    print(line(s, [r for r in rows if r[2].startswith(s + "/")]))
small = [r for r in rows if any(t in r[2] for t in ("n=4K", "n=64K", "launch_per_op", "per_launch", "mixedops/", "n=256/", "n=1K/"))]
print(line("launch/small", small))
print("worst (SD across jobs, median SD between a job's rounds, job means in the unit):")
for sd, within, k, means in rows[:15]:
    print(f"  {sd:5.2f}%  {within:5.2f}%  {k}  " + " ".join(f"{m:.4g}" for m in means))
