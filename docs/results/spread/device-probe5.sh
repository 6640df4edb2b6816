#!/usr/bin/env bash
# device-probe5.sh: probe5.c in separate processes (docs/gpu.md). On the GPU
# machine, from the repository root: bash docs/results/spread/device-probe5.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe5; mkdir -p $w
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe5.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe5 || exit 1
for i in $(seq 1 ${PROBES:-10}); do $w/probe5 $w/probe.cubin >> $OUT/probe5.jsonl; done
python3 - $OUT/probe5.jsonl <<'PY' | tee $OUT/probe5-summary.txt
import json, math, statistics as st, sys
ps = [json.loads(l)["sets"] for l in open(sys.argv[1])]
lg = [[math.log(x) for x in p] for p in ps]
print(f"{len(ps)} processes x {len(ps[0])} flush buffers (8 windows of one allocation, 8 of their own), cold 4K add, medians in us")
for p in ps: print("  " + " ".join(f"{x:.3f}" for x in p))
print(f"between processes, set 0: {100*st.stdev([l[0] for l in lg]):.2f}%   mean over sets: {100*st.stdev([st.mean(l) for l in lg]):.2f}%   within a process (mean SD over sets): {st.mean(100*st.stdev(l) for l in lg):.2f}%")
PY
