#!/usr/bin/env bash
# device-probe.sh: where the between-process spread of launch-bound benchmarks
# lives (docs/gpu.md). On the GPU machine, from the repository root:
#   source .gpu/gpu-env.sh && bash docs/results/spread/device-probe.sh
# 1. probe.c in separate processes: as is, without ASLR (setarch -R), and with
#    CUDA_DEVICE_MAX_CONNECTIONS=32; 2. perfgate's launch-bound subset (size ci)
#    in separate processes, as is and without ASLR. Results under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/probe; mkdir -p $w $OUT/pg
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader | tee $OUT/gpu.txt
nvidia-smi topo -m > $OUT/topo.txt 2>&1; lscpu > $OUT/lscpu.txt 2>&1
(cd $w && /usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -o probe.cubin $OLDPWD/$here/probe.cu) || exit 1
gcc -O2 -I/usr/local/cuda/include $here/probe.c -L/usr/local/cuda/lib64/stubs -lcuda -o $w/probe || exit 1
go build -tags cuda -o $w/perfgate ./cmd/perfgate || exit 1
for i in $(seq 1 ${PROBES:-6}); do
  $w/probe $w/probe.cubin >> $OUT/normal.jsonl
  setarch "$(uname -m)" -R $w/probe $w/probe.cubin >> $OUT/norand.jsonl
  CUDA_DEVICE_MAX_CONNECTIONS=32 $w/probe $w/probe.cubin >> $OUT/conn32.jsonl
done
python3 $here/analyze.py $OUT/normal.jsonl $OUT/norand.jsonl $OUT/conn32.jsonl | tee $OUT/probe-summary.txt
sub=(--suite elementwise,microbatch,mixedops,decode --size ci --filter '(n=4K|n=64K|l=128)')
$w/perfgate run "${sub[@]}" --out $w/warm.json 2> $OUT/pg-warm.log   # fills the PTX cache
for i in $(seq 1 ${PGRUNS:-5}); do
  t0=$(date +%s); $w/perfgate run "${sub[@]}" --out $OUT/pg/normal-$i.json 2>> $OUT/pg.log
  t1=$(date +%s); setarch "$(uname -m)" -R $w/perfgate run "${sub[@]}" --out $OUT/pg/norand-$i.json 2>> $OUT/pg.log
  echo "pg round $i: $((t1-t0)) s, $(( $(date +%s)-t1 )) s"
done
python3 $here/pgspread.py normal $OUT/pg/normal-*.json | tee $OUT/pg-summary.txt
python3 $here/pgspread.py norand $OUT/pg/norand-*.json | tee -a $OUT/pg-summary.txt
tar -C $OUT -czf $OUT/pg.tar.gz pg && rm -rf $OUT/pg
