#!/usr/bin/env bash
# Per-kernel ptx_sha256 on the GPU: the cuda test suite, then two builds of
# perfgate, the second with add switched to scalar loads
# (#define ADD_VECTOR_LOADS 0 in kernels/cu/elementwise.cu). add's hash must
# change; every other kernel of the module must keep its hash.
# Run from the repository root on the GPU machine after `source .gpu/gpu-env.sh`.
set -euo pipefail
[ -n "${SKIP_TESTS:-}" ] || PERFGATE_REQUIRE_GPU=1 go test -count=1 -tags cuda -v ./kernels/... 2>&1 | tee $OUT/go-test-cuda.log | grep -E '^(--- |ok|FAIL|PASS)'
go build -tags cuda -o /tmp/pg-vector ./cmd/perfgate
sed -i 's/#define ADD_VECTOR_LOADS 1/#define ADD_VECTOR_LOADS 0/' kernels/cu/elementwise.cu
go build -tags cuda -o /tmp/pg-scalar ./cmd/perfgate
sed -i 's/#define ADD_VECTOR_LOADS 0/#define ADD_VECTOR_LOADS 1/' kernels/cu/elementwise.cu
for v in vector scalar; do
  /tmp/pg-$v run --suite elementwise,microbatch,mixedops --size small --fast --max-time 1s \
    --filter '(elementwise/(add|gelu|relu)/dtype=fp16/n=1M/mode=cold|microbatch/.*n=256/.*cold|mixedops/.*cold)' \
    --out $OUT/ptxhash-$v.json --event local --branch $v --commit 0000000000000000000000000000000000000000 2>$OUT/run-$v.stderr
done
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
h = {v: {b["suite"] + "/" + b["name"]: b.get("info", {}).get("ptx_sha256", "") for b in json.load(open(f"{out}/ptxhash-{v}.json"))["benchmarks"]} for v in ("vector", "scalar")}
for k in sorted(h["vector"]):
    a, b = h["vector"][k], h["scalar"].get(k, "")
    print(f"{'CHANGED ' if a != b else 'same    '} {a[:12]} {b[:12]} {k}")
PY
