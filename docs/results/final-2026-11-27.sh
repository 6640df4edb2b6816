#!/usr/bin/env bash
# final-2026-11-27.sh: the session's last device call, parts by priority, each
# with its own time limit so that one slow part cannot take the others' time:
#   1. docs/results/torchref/graphcheck.py --fix with CUDA_DEVICE_MAX_CONNECTIONS=1, as the
#      harness runs (issue 31): which capture gives the graph arms the right answer; with
#      --fix it rewrites torchref.py's _graphed before the build embeds it ($OUT/torchref.py)
#   2. PERFGATE_REQUIRE_GPU=1 go test -tags cuda ./...  (issue 29: the kernels split on a GPU)
#   3. the default suites at ci --fast, without and with --reference torch, timed (the 20% rule)
#   4. gemm at small --fast, fp16 and bf16, with --reference torch (torch.matmul's row of the table)
#   5. graphcheck.py again with CUDA_DEVICE_MAX_CONNECTIONS unset (the diagnosis only)
#   source .gpu/gpu-env.sh && bash docs/results/final-2026-11-27.sh
set -u
OUT=${OUT:-/tmp/perfgate-out}
W=$(mktemp -d /tmp/final.XXXXXX)
mkdir -p "$OUT"
sum=$OUT/summary.txt
note() { echo "$*" | tee -a "$sum"; }
part() { # part NAME LIMIT CMD...
  local name=$1 limit=$2 s rc
  shift 2
  s=$(date +%s%N)
  timeout "$limit" "$@" > "$W/$name.log" 2>&1
  rc=$?
  note "$name: exit $rc in $(( ($(date +%s%N) - s) / 1000000 )) ms"
  return 0
}
note "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader)"
pg=/tmp/pg-final
part graphcheck-1 60 env CUDA_DEVICE_MAX_CONNECTIONS=1 python3 docs/results/torchref/graphcheck.py --fix
cp pyharness/perfgate_harness/torchref.py $OUT/torchref.py
grep -E "right in every|is now" $W/graphcheck-1.log | tee -a "$sum"
part build 60 go build -tags cuda -o $pg ./cmd/perfgate
part gotest 170 go test -tags cuda -count=1 -p 16 ./...
grep -E "^(ok|FAIL|---|panic)" $W/gotest.log | grep -v "no test files" > $OUT/gotest.txt
grep -cE "^ok" $OUT/gotest.txt | sed 's/^/packages ok: /' | tee -a "$sum"
grep -E "^(FAIL|--- FAIL|panic)" $OUT/gotest.txt | head -20 | tee -a "$sum"
meta=(--repo perfgate/perfgate --testbed lent --commit 0000000000000000000000000000000000000000 --branch main --event push)
part ci-fast 60 $pg run "${meta[@]}" --suite memory,elementwise,microbatch,mixedops,attention,decode --size ci --fast --out $W/ci-fast.json
part ci-fast-torch 120 $pg run "${meta[@]}" --suite memory,elementwise,microbatch,mixedops,attention,decode --size ci --fast --reference torch --out $OUT/ci-fast-torch.json
part gemm-torch 45 $pg run "${meta[@]}" --suite gemm --size small --fast --dtype fp16,bf16 --reference torch --out $OUT/gemm-torch.json
tail -3 $W/ci-fast-torch.log >> "$sum"
part graphcheck-unset 45 env -u CUDA_DEVICE_MAX_CONNECTIONS python3 docs/results/torchref/graphcheck.py torchref thread-local
cat $W/graphcheck-1.log $W/graphcheck-unset.log > $OUT/graphcheck.txt
tar -czf $OUT/logs.tar.gz -C $W --exclude='*.json' . 2>/dev/null
cat "$sum"
