#!/usr/bin/env bash
# device-probe2.sh: probe2.c in separate processes (docs/gpu.md). On the GPU
# machine, from the repository root: bash docs/results/spread/device-probe2.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe2; mkdir -p $w
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe2.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe2 || exit 1
for i in $(seq 1 ${PROBES:-8}); do $w/probe2 $w/probe.cubin >> $OUT/probe2.jsonl; done
for i in 1 2; do CUDA_DEVICE_MAX_CONNECTIONS=32 $w/probe2 $w/probe.cubin >> $OUT/probe2-conn32.jsonl; done
python3 $here/analyze2.py $OUT/probe2.jsonl | tee $OUT/probe2-summary.txt
echo "peak RSS (MiB), default: $(grep -o '"maxrss_mib":[0-9]*' $OUT/probe2.jsonl | cut -d: -f2 | tr '\n' ' ') 32 connections: $(grep -o '"maxrss_mib":[0-9]*' $OUT/probe2-conn32.jsonl | cut -d: -f2 | tr '\n' ' ')"
