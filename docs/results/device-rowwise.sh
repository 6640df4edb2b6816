#!/usr/bin/env bash
# device-rowwise.sh measures the rowwise and gemm suites and PyTorch side by
# side in one call on the lent GPU machine:
#   source .gpu/gpu-env.sh && bash docs/results/device-rowwise.sh
# Knobs (environment): STAGES (default "test run torch"), SIZE (rowwise
# preset, default medium), GEMM_SIZE (default medium), FILTER (a --filter
# for both suites, default all), RUNFLAGS (extra perfgate run flags, e.g.
# "--fast" or "--max-time 2s"). Writes to $OUT: summary.txt, table.md and
# results.tgz (results JSON, torch JSON, logs).
set -uo pipefail
STAGES=${STAGES:-test run torch}
SIZE=${SIZE:-medium}
GEMM_SIZE=${GEMM_SIZE:-medium}
FILTER=${FILTER:-.}
RUNFLAGS=${RUNFLAGS:---max-time 2s}
want() { [[ " $STAGES " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/perfgate-out}
W=/tmp/rowwise-results
mkdir -p "$OUT" $W
pg=/tmp/pg
sha=$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }
finish() {
  tar -C $W -czf "$OUT/results.tgz" . 2>/dev/null
  stage done
}
trap finish EXIT

stage build
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> "$OUT/summary.txt"

want test && {
  stage "go test -tags cuda ./kernels/... (PERFGATE_REQUIRE_GPU=${PERFGATE_REQUIRE_GPU:-})"
  timeout 120 go test -tags cuda -count=1 -v ./kernels/... > $W/test.log 2>&1
  echo "go test exit $?" | tee -a "$OUT/summary.txt"
  grep -E "^(--- FAIL|ok|FAIL|panic)" $W/test.log | head -40 | tee -a "$OUT/summary.txt"
  grep -E -A3 "^    --- FAIL" $W/test.log | head -40 >> "$OUT/summary.txt"
}

meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$sha" --branch main --event push)
want run && {
  stage "perfgate run rowwise --size $SIZE, gemm --size $GEMM_SIZE ($RUNFLAGS)"
  timeout ${RUN_TIMEOUT:-200} $pg run "${meta[@]}" --suite rowwise --size "$SIZE" --filter "$FILTER" $RUNFLAGS --out $W/rowwise.json 2> $W/rowwise.log
  echo "rowwise exit $?" | tee -a "$OUT/summary.txt"
  timeout ${GEMM_TIMEOUT:-120} $pg run "${meta[@]}" --suite gemm --size "$GEMM_SIZE" --filter "$FILTER" $RUNFLAGS --out $W/gemm.json 2> $W/gemm.log
  echo "gemm exit $?" | tee -a "$OUT/summary.txt"
  grep -h "ERROR\|perfgate:" $W/rowwise.log $W/gemm.log | head -20 >> "$OUT/summary.txt"
}

want torch && {
  stage "torch reference"
  python3 - $W/rowwise.json $W/gemm.json > $W/perfgate.json <<'EOF'
import json, sys
import os
docs = [json.load(open(p)) for p in sys.argv[1:] if os.path.exists(p) and os.path.getsize(p) > 0]
out = docs[0]
for d in docs[1:]:
    out["benchmarks"] += d["benchmarks"]
json.dump(out, sys.stdout)
EOF
  PYTHONUNBUFFERED=1 timeout ${TORCH_TIMEOUT:-120} python3 docs/results/torch_rowwise.py time $W/perfgate.json > $W/torch.json 2> $W/torch.err
  echo "torch exit $?" | tee -a "$OUT/summary.txt"
  python3 docs/results/torch_rowwise.py table $W/perfgate.json $W/torch.json > "$OUT/table.md" 2>> $W/torch.err
  cp "$OUT/table.md" $W/
}
