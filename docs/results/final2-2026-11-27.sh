#!/usr/bin/env bash
# final2-2026-11-27.sh: the device call after final-2026-11-27.sh's findings
# were fixed (the graph arms' inputs kept alive, the sharing test's worker
# spec, the build-script tests on a GPU host):
#   1. graphcheck.py (torchref's own capture) with CUDA_DEVICE_MAX_CONNECTIONS=1
#   2. PERFGATE_REQUIRE_GPU=1 go test -tags cuda ./...
#   3. the default suites at ci --fast without, then with --reference torch,
#      timed side by side (the 20% rule), the second's results for docs/gpu.md
#   source .gpu/gpu-env.sh && bash docs/results/final2-2026-11-27.sh
set -u
OUT=${OUT:-/tmp/perfgate-out}
W=$(mktemp -d /tmp/final2.XXXXXX)
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
pg=/tmp/pg-final2
part graphcheck 60 env CUDA_DEVICE_MAX_CONNECTIONS=1 python3 docs/results/torchref/graphcheck.py torchref
cp $W/graphcheck.log $OUT/graphcheck.txt
grep "right in every" $W/graphcheck.log | tee -a "$sum"
part build 60 go build -tags cuda -o $pg ./cmd/perfgate
part gotest 200 go test -tags cuda -count=1 -p 16 ./...
grep -E "^(ok|FAIL|---|panic)" $W/gotest.log | grep -v "no test files" > $OUT/gotest.txt
grep -E -- "--- SKIP" -A1 $W/gotest.log > $OUT/gotest-skips.txt
grep -cE "^ok" $OUT/gotest.txt | sed 's/^/packages ok: /' | tee -a "$sum"
grep -E "^(FAIL|--- FAIL|panic)" $OUT/gotest.txt | head -20 | tee -a "$sum"
meta=(--repo perfgate/perfgate --testbed lent --commit 0000000000000000000000000000000000000000 --branch main --event push)
suites=memory,elementwise,microbatch,mixedops,attention,decode
part ci-fast 60 $pg run "${meta[@]}" --suite $suites --size ci --fast --out $OUT/ci-fast.json
part ci-fast-torch 260 $pg run "${meta[@]}" --suite $suites --size ci --fast --reference torch --out $OUT/ci-fast-torch.json
grep -E "ERROR" $W/ci-fast-torch.log | head -10 | tee -a "$sum"
tar -czf $OUT/logs.tar.gz -C $W . 2>/dev/null
cat "$sum"
