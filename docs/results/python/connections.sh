#!/usr/bin/env bash
# connections.sh: does the number of hardware queues a context gets explain
# the Python harness's 1M and 4K gap to the Go harness (docs/python.md,
# "Agreement with the Go harness")? The same work as device.sh's (b), at
# 4K and 1M only, four ways: the Go harness and the Python harness, each with
# CUDA_DEVICE_MAX_CONNECTIONS unset (both harnesses then take 1) and with 8
# (CUDA's default, what a torch process had before the Python harness set 1).
#   source .gpu/gpu-env.sh && bash docs/results/python/connections.sh
# $OUT/connections.txt gets the table; $OUT/connections.tar.gz the results.
set -u
OUT=${OUT:-/tmp/perfgate-out}
here=docs/results/python
W=$(mktemp -d /tmp/perfgate-conn.XXXXXX)
mkdir -p "$OUT"
pg=${PG:-/tmp/pg-conn}
[ -x "$pg" ] || go build -tags cuda -o $pg ./cmd/perfgate || exit 1
# The python suites of device.sh at 4K and 1M only.
sed -e 's/n: \[4096, 1048576, 16777216\]/n: [4096, 1048576]/' -e 's/n: \[1048576, 16777216, 67108864\]/n: [1048576]/' \
  $here/.perfgate.yml > $here/.conn.perfgate.yml
sed -e 's/n: \[[0-9, ]*\]/n: [1048576]/' examples/kernels/.perfgate.yml > examples/kernels/.conn.perfgate.yml
for c in unset 8; do
  envs=()
  [ $c = unset ] && envs=(env -u CUDA_DEVICE_MAX_CONNECTIONS) || envs=(env CUDA_DEVICE_MAX_CONNECTIONS=$c)
  "${envs[@]}" timeout 60 $pg run --suite elementwise --size small --dtype fp32 --op add --out $W/go-add-$c.json 2> $W/go-add-$c.log
  echo "go add ($c): exit $?"
  "${envs[@]}" timeout 90 $pg run --config examples/kernels/.conn.perfgate.yml --suite saxpy --out $W/go-saxpy-$c.json 2> $W/go-saxpy-$c.log
  echo "go saxpy ($c): exit $?"
  "${envs[@]}" timeout 150 $pg run --config $here/.conn.perfgate.yml --out $W/py-$c.json 2> $W/py-$c.log
  echo "python ($c): exit $?"
done
rm -f $here/.conn.perfgate.yml examples/kernels/.conn.perfgate.yml
python3 - "$W" > $OUT/connections.txt <<'PY'
import json, os, sys
w = sys.argv[1]
def med(f):
    try:
        d = json.load(open(os.path.join(w, f)))
    except (OSError, ValueError) as e:
        return {}
    out = {}
    for b in d["benchmarks"]:
        if b.get("error"):
            continue
        n = b["name"].replace("n=4K", "n=4096").replace("n=1M", "n=1048576")
        parts = [p for p in n.split("/") if not p.startswith("dtype=")]
        key = "/".join(parts).replace("torch_add", "torch.add")
        out[key] = (b["metrics"]["median_us"], b["run_env"] if "run_env" in b else d["run"]["env"].get("cuda_device_max_connections", "?"))
    return out
rows = {}
for c in ("unset", "8"):
    for side, files in (("go", ("go-add-%s.json", "go-saxpy-%s.json")), ("py", ("py-%s.json",))):
        for f in files:
            for k, (v, env) in med(f % c).items():
                rows.setdefault(k, {})[(side, c)] = (v, env)
print("work                               mode    Go(1)    Go(8)    Py(1)    Py(8)   Py(1)/Go(1)  Py(8)/Go(1)  Go(8)/Go(1)   (run.env connections)")
for k in sorted(rows):
    r = rows[k]
    g = lambda s, c: r.get((s, c), (None, ""))[0]
    f = lambda x: "%8.3f" % x if x else "       -"
    q = lambda a, b: "%12.3f" % (a / b) if a and b else "           -"
    work, mode = k.rsplit("/mode=", 1)
    envs = ",".join("%s%s=%s" % (s, c, r[(s, c)][1]) for (s, c) in sorted(r))
    print("%-34s %-5s %s %s %s %s %s %s %s   %s" % (work, mode, f(g("go", "unset")), f(g("go", "8")), f(g("py", "unset")), f(g("py", "8")),
          q(g("py", "unset"), g("go", "unset")), q(g("py", "8"), g("go", "unset")), q(g("go", "8"), g("go", "unset")), envs))
PY
cat $OUT/connections.txt
tar -czf $OUT/connections.tar.gz -C $W .
