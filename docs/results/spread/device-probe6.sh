#!/usr/bin/env bash
# device-probe6.sh: probe6.c in separate processes (docs/gpu.md). On the GPU
# machine, from the repository root: bash docs/results/spread/device-probe6.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe6; mkdir -p $w
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe6.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe6 || exit 1
for i in $(seq 1 ${PROBES:-8}); do $w/probe6 $w/probe.cubin >> $OUT/probe6.jsonl; done
python3 - $OUT/probe6.jsonl <<'PY' | tee $OUT/probe6-summary.txt
import json, math, statistics as st, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
ks = sorted(k for k in ps[0] if k.startswith("X"))
for q in ["cold", "b4k"]:
    print(f"{q}: between processes, primary context {100*st.stdev([math.log(p['X0'][q]) for p in ps]):.2f}%,"
          f" mean over {len(ks)} contexts {100*st.stdev([st.mean(math.log(p[k][q]) for k in ks) for p in ps]):.2f}%;"
          f" inside a process across contexts {st.mean(100*st.stdev([math.log(p[k][q]) for k in ks]) for p in ps):.2f}%")
    for p in ps: print("   " + " ".join(f"{p[k][q]:.3f}" for k in ks))
print("peak RSS after each context (MiB):", [[p[k]["rss_mib"] for k in ks] for p in ps][:3])
PY
