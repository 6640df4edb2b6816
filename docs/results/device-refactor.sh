#!/usr/bin/env bash
# The run and check paths after issue 11's refactor (runner/, ab/, tracker/check,
# tracker/action), and run --skip-unchanged-against, on the GPU machine.
# Run from the repository root after `source .gpu/gpu-env.sh`; writes under $OUT.
set -uo pipefail
step() { printf '== %s\n' "$*"; }
step "go test -tags cuda ./runner/... ./ab/... ./tracker/check/..."
PERFGATE_REQUIRE_GPU=1 go test -tags cuda -count=1 ./runner/... ./ab/... ./tracker/check/... 2>&1 | tee $OUT/go-test.log | grep -E '^(ok|FAIL|---)'
go build -tags cuda -o /tmp/pg ./cmd/perfgate || exit 1
step "doctor"; /tmp/pg doctor > $OUT/doctor.txt 2>&1; echo "doctor exit $?"
F='elementwise/(add|gelu|relu)/dtype=(fp16|fp32)'
meta() { echo --repo perfgate/perfgate --testbed lent-h100 --commit "$(printf "$1%.0s" $(seq 40))" --branch "$2" --event "$3"; }
step "3 main jobs (2 rounds each, separate processes), recorded; then a PR job checked"
for i in 1 2 3; do
  /tmp/pg run --suite elementwise --size ci --filter "$F" --rounds 2 $(meta $i main push) --out "$OUT/main$i-{round}.json" 2>>$OUT/run.log || echo "main$i run exit $?"
done
/tmp/pg record --store /tmp/st $OUT/main*.json > $OUT/record.txt 2>&1; echo "record exit $?"
/tmp/pg run --suite elementwise --size ci --filter "$F" --rounds 2 $(meta 4 feature pull_request) --pr 7 --out "$OUT/pr-{round}.json" 2>>$OUT/run.log
/tmp/pg check --store /tmp/st --format markdown $OUT/pr-*.json > $OUT/check.md 2>$OUT/check.stderr; echo "check (A/A) exit $? (0 = no regression)"
step "skip unchanged: same build, then add switched to scalar loads"
/tmp/pg run --suite elementwise --size ci --filter "$F" $(meta 5 main push) --out $OUT/base.json 2>>$OUT/run.log
/tmp/pg run --suite elementwise --size ci --filter "$F" $(meta 6 feature pull_request) --skip-unchanged-against $OUT/base.json --out $OUT/same.json 2>>$OUT/run.log; echo "same exit $?"
sed -i 's/#define ADD_VECTOR_LOADS 1/#define ADD_VECTOR_LOADS 0/' kernels/cu/elementwise.cu && go build -tags cuda -o /tmp/pg2 ./cmd/perfgate
/tmp/pg2 run --suite elementwise --size ci --filter "$F" $(meta 7 feature pull_request) --skip-unchanged-against $OUT/base.json --out $OUT/changed.json 2>>$OUT/run.log; echo "changed exit $?"
sed -i 's/#define ADD_VECTOR_LOADS 0/#define ADD_VECTOR_LOADS 1/' kernels/cu/elementwise.cu
/tmp/pg compare --format markdown --baseline $OUT/base.json --candidate $OUT/changed.json > $OUT/changed.md 2>&1; echo "compare exit $?"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
for f in ("same", "changed"):
    bs = json.load(open(f"{out}/{f}.json"))["benchmarks"]
    sk = [b["name"] for b in bs if b.get("info", {}).get("skipped")]
    print(f"{f}: {len(bs)} benchmarks, {len(sk)} skipped; measured: {sorted(b['name'] for b in bs if not b.get('info', {}).get('skipped'))}")
PY
