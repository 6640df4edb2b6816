#!/usr/bin/env bash
# device-probe3.sh: probe3.c in separate processes (docs/gpu.md). On the GPU
# machine, from the repository root: bash docs/results/spread/device-probe3.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe3; mkdir -p $w
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe3.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe3 || exit 1
for i in $(seq 1 ${PROBES:-10}); do $w/probe3 $w/probe.cubin | tee -a $OUT/probe3.jsonl; done
python3 - $OUT/probe3.jsonl <<'PY' | tee $OUT/probe3-summary.txt
import json, math, statistics as st, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
for k, what in [("A", "stream launch, blocked"), ("B", "graph of 1, blocked"), ("C", "event nodes inside a graph")]:
    v = [p[k] for p in ps]
    print(f"{k} {what:28s} median {st.median(v):.3f} us  SD across {len(v)} processes {100 * st.stdev([math.log(x) for x in v]):.2f}%  range {min(v):.3f}-{max(v):.3f}")
PY
