#!/usr/bin/env bash
# device-decode3.sh: one device call for issue 16's decode goal (third pass):
#   source .gpu/gpu-env.sh && OUT=... bash docs/results/device-decode3.sh
# Builds perfgate, runs the decode and attention-metric GPU tests (TEST: a go
# test -run pattern, default "Decode|Attention"), perfgate run --suite decode
# --size medium $RUNFLAGS in two processes (REPS), and decode_bench.cu (the
# kernels alone, plus -DDM_PROF's cycles per phase). Writes to $OUT:
# summary.txt, results.tgz.
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
RUNFLAGS=${RUNFLAGS:---fast}
W=/tmp/decode3
mkdir -p "$OUT" $W
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }
trap 'tar -C $W -czf "$OUT/results.tgz" . 2>/dev/null; stage done' EXIT
stage build
go build -tags cuda -o /tmp/pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> "$OUT/summary.txt"
stage "go test -tags cuda -run '${TEST:-Decode|Attention}' ./kernels/... (PERFGATE_REQUIRE_GPU=${PERFGATE_REQUIRE_GPU:-})"
timeout 200 go test -tags cuda -count=1 -v -run "${TEST:-Decode|Attention}" ./kernels/... > $W/test.log 2>&1
echo "go test exit $?" | tee -a "$OUT/summary.txt"
grep -E "^(--- |ok|FAIL|panic)|^    --- FAIL" $W/test.log | head -40 | tee -a "$OUT/summary.txt"
meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)" --branch main --event push)
for i in ${REPS:-1 2}; do # separate processes: their spread is the noise to judge by
  stage "perfgate run --suite decode --size medium $RUNFLAGS (process $i)"
  timeout 200 /tmp/pg run "${meta[@]}" --suite decode --size medium --filter "${DECODE_FILTER:-.}" $RUNFLAGS --out $W/decode$i.json 2> $W/decode$i.log
  echo "decode $i exit $?" | tee -a "$OUT/summary.txt"
  python3 docs/results/decode_summary.py $W/decode$i.json | tee -a "$OUT/summary.txt"
done
stage "decode_bench.cu"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -arch=sm_90 -std=c++17 -O3 -I kernels/cu -o /tmp/db docs/results/decode_bench.cu 2> /dev/null && timeout 120 /tmp/db 21 | tee $W/bench.txt >> "$OUT/summary.txt"
nvcc -DDM_PROF -arch=sm_90 -std=c++17 -O3 -I kernels/cu -o /tmp/dbp docs/results/decode_bench.cu 2> /dev/null && DB_ONLY=chip DB_MAXL=512 timeout 60 /tmp/dbp 5 | tee $W/bench-prof.txt >> "$OUT/summary.txt"
cp $W/decode*.json "$OUT/" 2>/dev/null
