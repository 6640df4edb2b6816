#!/usr/bin/env bash
# device-run.sh produces the GPU figures of docs/gpu.md and the demo history
# under examples/gpu/ (since moved to examples/history/ and examples/pr.json), in one call on the lent GPU machine:
#   source .gpu/gpu-env.sh && bash docs/results/device-run.sh
# The machine gets no .git: write the commit being measured into
# docs/results/.commit first (git rev-parse HEAD > docs/results/.commit).
# Everything lands in $OUT (results JSON, logs, a summary). STAGES picks
# stages (default: all): test figures batch torch config history.
set -uo pipefail
STAGES=${STAGES:-test figures batch torch config history}
want() { [[ " $STAGES " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/perfgate-out}
mkdir -p "$OUT" /tmp/hist
pg=/tmp/pg
sha=$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }

stage build
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> "$OUT/summary.txt"

$pg doctor > "$OUT/doctor.txt" 2>&1

want test && {
stage "go test -tags cuda ./kernels/... (PERFGATE_REQUIRE_GPU=$PERFGATE_REQUIRE_GPU)"
timeout 150 go test -tags cuda -count=1 -v ./kernels/... > "$OUT/test.log" 2>&1
echo "go test exit $?" | tee -a "$OUT/summary.txt"
grep -E "^(--- |ok|FAIL)" "$OUT/test.log" | tee -a "$OUT/summary.txt"
}

meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$sha" --branch main --event push)
want figures && {
stage "figures run"
  timeout 60 $pg run "${meta[@]}" --suite memory --out /tmp/doc-memory.json
  timeout 150 $pg run "${meta[@]}" --suite elementwise --size large --dtype fp32 --max-time 2s \
    --filter 'elementwise/(add|gelu)/' --out /tmp/doc-ew-large.json
  timeout 120 $pg run "${meta[@]}" --suite elementwise --size medium --max-time 2s \
    --filter 'elementwise/((mul|div|relu|sigmoid|swish)/dtype=fp32|(add|gelu)/dtype=(fp16|bf16))/' --out /tmp/doc-ew-medium.json
} 2> "$OUT/figures.log"
want batch && timeout 90 $pg run "${meta[@]}" --suite microbatch,mixedops --size medium --max-time 3s --out /tmp/doc-batch.json 2>> "$OUT/figures.log"
tail -3 "$OUT/figures.log" >> "$OUT/summary.txt"

want config && {
stage "config: kernel suite of examples/kernels/.perfgate.yml"
timeout 90 $pg run "${meta[@]}" --config examples/kernels/.perfgate.yml --suite saxpy --out /tmp/doc-kernel-suite.json 2> "$OUT/config.log"
echo "kernel suite exit $?" >> "$OUT/summary.txt"
timeout 120 $pg run "${meta[@]}" --config examples/kernels/.perfgate.yml --suite benchpkg --out /tmp/doc-command-suite.json 2>> "$OUT/config.log"
echo "command suite exit $?" >> "$OUT/summary.txt"
}

want torch && {
stage "torch reference"
timeout 90 python3 docs/results/torch_ref.py > "$OUT/torch.json" 2> "$OUT/torch.err"; echo "torch exit $?" >> "$OUT/summary.txt"
}

want history && {
stage "demo history: 5 main pushes"
filt='elementwise/(add|relu|gelu)/dtype=(fp32|fp16)/n=(1M|16M|64M)/'
for i in 1 2 3 4 5; do
  c=$(printf '%040x' $((0xa11ce000 + i)))
  timeout 40 $pg run --repo perfgate/perfgate --testbed lent-h100 --commit "$c" --branch main --event push \
    --suite elementwise --size medium --fast --filter "$filt" --out /tmp/hist/main-$i.json 2>> "$OUT/history.log"
done
stage "demo PR: add with scalar loads"
sed -i 's/^#define ADD_VECTOR_LOADS 1/#define ADD_VECTOR_LOADS 0/' kernels/cu/elementwise.cu
go build -tags cuda -o /tmp/pg-pr ./cmd/perfgate && timeout 40 /tmp/pg-pr run --repo perfgate/perfgate --testbed lent-h100 \
  --commit "$(printf '%040x' 0xbadadd01)" --branch scalar-add --event pull_request --pr 7 \
  --suite elementwise --size medium --fast --filter "$filt" --out /tmp/hist/pr.json 2>> "$OUT/history.log"
sed -i 's/^#define ADD_VECTOR_LOADS 0/#define ADD_VECTOR_LOADS 1/' kernels/cu/elementwise.cu
}
cp "$OUT/doctor.txt" /tmp/doctor.txt
(cd /tmp && tar -czf "$OUT/results.tar.gz" $(ls -d hist doc-*.json doctor.txt 2>/dev/null))
stage done
