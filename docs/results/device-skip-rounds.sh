#!/usr/bin/env bash
# run --skip-unchanged-against with several baseline files and --rounds (the action's
# skip-unchanged-kernels path: 3 rounds, each suite in its own process), on the GPU machine.
# Run from the repository root after `source .gpu/gpu-env.sh`; writes under $OUT.
set -uo pipefail
go build -tags cuda -o /tmp/pg ./cmd/perfgate || exit 1
F='elementwise/(add|gelu|relu)/dtype=(fp16|fp32)'
/tmp/pg run --suite elementwise --size ci --filter "$F" --rounds 2 --event push --branch main --out "$OUT/base-{round}.json" 2>$OUT/base.log; echo "base exit $?"
/tmp/pg run --suite elementwise --size ci --filter "$F" --rounds 3 --event pull_request --branch pr \
  --skip-unchanged-against $OUT/base-1.json,$OUT/base-2.json --out "$OUT/same-{round}.json" 2>$OUT/same.log; echo "same exit $?"
sed -i 's/#define ADD_VECTOR_LOADS 1/#define ADD_VECTOR_LOADS 0/' kernels/cu/elementwise.cu && go build -tags cuda -o /tmp/pg2 ./cmd/perfgate || exit 1
sed -i 's/#define ADD_VECTOR_LOADS 0/#define ADD_VECTOR_LOADS 1/' kernels/cu/elementwise.cu
/tmp/pg2 run --suite elementwise --size ci --filter "$F" --rounds 3 --event pull_request --branch pr \
  --skip-unchanged-against $OUT/base-1.json,$OUT/base-2.json --out "$OUT/changed-{round}.json" 2>$OUT/changed.log; echo "changed exit $?"
/tmp/pg compare --format markdown --baseline $OUT/base-1.json --baseline $OUT/base-2.json \
  --candidate $OUT/changed-1.json --candidate $OUT/changed-2.json --candidate $OUT/changed-3.json > $OUT/changed.md 2>$OUT/compare.log; echo "compare exit $? (1 = regression)"
python3 - "$OUT" <<'PY'
import glob, json, sys
out = sys.argv[1]
for side in ("same", "changed"):
    for f in sorted(glob.glob(f"{out}/{side}-*.json")):
        bs = json.load(open(f))["benchmarks"]
        measured = sorted({b["name"].split("/")[0] for b in bs if not b.get("info", {}).get("skipped")})
        print(f"{f.rsplit('/', 1)[1]}: {len(bs)} benchmarks, {sum(1 for b in bs if b.get('info', {}).get('skipped'))} skipped, measured ops {measured}")
PY
head -3 $OUT/changed.md
