#!/usr/bin/env bash
# device-probe7.sh: probe7.c in separate processes, then one round of the
# default PR run under the driver's default and CUDA_DEVICE_MAX_CONNECTIONS=1
# (docs/gpu.md). On the GPU machine, from the repository root, after
# `source .gpu/gpu-env.sh`: bash docs/results/spread/device-probe7.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe7; mkdir -p $w
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe7.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe7 || exit 1
P=${PROBES:-8}
variant() { # variant NAME ENV...: P processes of probe7 under ENV
  local name=$1; shift
  for i in $(seq 1 $P); do env "$@" $w/probe7 $w/probe.cubin | sed "s/^{/{\"variant\":\"$name\",/" >> $OUT/probe7.jsonl; done
}
variant ctx1 CTX=1
variant ctx4-conn1 CTX=4 CUDA_DEVICE_MAX_CONNECTIONS=1
variant ctx4-conn2 CTX=4 CUDA_DEVICE_MAX_CONNECTIONS=2
variant ctx4-rot CTX=4 ROT=1
variant ctx4-rot-conn1 CTX=4 ROT=1 CUDA_DEVICE_MAX_CONNECTIONS=1
variant mods16 CTX=1 MODS=16
python3 - $OUT/probe7.jsonl <<'PY' | tee $OUT/probe7-summary.txt
import json, math, statistics as st, sys, collections
by = collections.defaultdict(list)
for l in open(sys.argv[1]):
    p = json.loads(l); by[p["variant"]].append(p)
sd = lambda v: 100 * st.stdev(v) if len(v) > 1 else float("nan")
for name, ps in by.items():
    ks = sorted(k for k in ps[0] if k.startswith("X"))
    print(f"{name}: {len(ps)} processes, {len(ks)} lanes; peak RSS start {ps[0]['rss_start']} MiB, after each lane "
          f"{[ps[0][k]['rss_mib'] for k in ks]}, end {[p['rss_end'] for p in ps][:4]}")
    for q in ["cold", "b4k"]:
        mean = [st.mean(math.log(p[k][q]) for k in ks) for p in ps]
        print(f"  {q}: primary {sd([math.log(p['X0'][q]) for p in ps]):.2f}% between processes (median {st.median(p['X0'][q] for p in ps):.3f}),"
              f" mean over lanes {sd(mean):.2f}%, inside a process across lanes "
              f"{st.mean(sd([math.log(p[k][q]) for k in ks]) for p in ps) if len(ks) > 1 else float('nan'):.2f}%")
PY
# one round of the default PR run, default connections and 1, twice each, alternating
go build -tags cuda -o $w/perfgate ./cmd/perfgate || exit 1
meta=(--repo perfgate/perfgate --testbed lent-h100 --branch main --event push)
for i in 1 2; do
  for c in default 1; do
    e=(); [ $c = 1 ] && e=(CUDA_DEVICE_MAX_CONNECTIONS=1)
    python3 - $c-$i env "${e[@]}" $w/perfgate run "${meta[@]}" --commit $(printf '%040x' $i) --run-id r$c$i --out $w/round-$c-$i.json <<'PY' | tee -a $OUT/rounds.txt
import resource, subprocess, sys, time
t = time.time(); r = subprocess.run(sys.argv[2:], stderr=open(f"/tmp/probe7/{sys.argv[1]}.log", "w"))
print(f"round {sys.argv[1]}: exit {r.returncode}, {time.time() - t:.1f} s, peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB")
PY
  done
done
python3 - $w <<'PY' | tee -a $OUT/rounds.txt
import json, sys, statistics as st, glob
def load(f): return {b["suite"] + "/" + b["name"]: st.median(b["samples"]) for b in json.load(open(f))["benchmarks"] if b.get("samples")}
r = {k: load(f"{sys.argv[1]}/round-{k}.json") for k in ["default-1", "default-2", "1-1", "1-2"]}
keys = sorted(set.intersection(*map(set, r.values())))
print(f"{len(keys)} benchmarks; ratio conn1/default of the two-round means, the 12 furthest from 1:")
rows = sorted(((st.mean([r['1-1'][k], r['1-2'][k]]) / st.mean([r['default-1'][k], r['default-2'][k]]), k) for k in keys), key=lambda x: -abs(x[0] - 1))
for x, k in rows[:12]: print(f"  {x:.3f} {k}")
print(f"  median ratio {st.median(x for x, _ in rows):.4f}")
PY
tar -C $w -czf $OUT/rounds.tar.gz $(cd $w && ls round-*.json)
