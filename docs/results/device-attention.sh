#!/usr/bin/env bash
# device-attention.sh produces the attention and decode figures of docs/gpu.md
# in one call on the lent GPU machine, PyTorch side by side:
#   source .gpu/gpu-env.sh && bash docs/results/device-attention.sh
# The machine gets no .git: write the commit being measured into
# docs/results/.commit first. Everything lands in $OUT: summary.txt,
# table.md (the ratio tables), and results.tar.gz (results JSON, logs, the
# PyTorch JSONL and its ingested form). STAGES picks stages (default: all):
# test attention torch decode, and ab (an A/B of FLASH_MIN_BLOCKS). MAXTIME is --max-time (default 1s).
set -uo pipefail
STAGES=${STAGES:-test attention torch decode}
MAXTIME=${MAXTIME:-1s}
want() { [[ " $STAGES " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/perfgate-out}
W=/tmp/att
mkdir -p "$OUT" $W
pg=/tmp/pg
sha=$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }

stage build
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> "$OUT/summary.txt"
$pg doctor > $W/doctor.txt 2>&1

want test && {
stage "go test -tags cuda ./kernels/... (PERFGATE_REQUIRE_GPU=$PERFGATE_REQUIRE_GPU)"
timeout 150 go test -tags cuda -count=1 -v ./kernels/... > $W/test.log 2>&1
echo "go test exit $?" | tee -a "$OUT/summary.txt"
grep -E "^(--- |ok|FAIL)|errors: " $W/test.log | tee -a "$OUT/summary.txt"
}

meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$sha" --branch main --event push)
want attention && {
stage "perfgate run --suite attention --max-time $MAXTIME"
timeout 200 $pg run "${meta[@]}" --suite attention --max-time "$MAXTIME" --out $W/h100-attention.json 2> $W/attention.log
echo "attention exit $?" | tee -a "$OUT/summary.txt"
grep -E "ERROR|failed" $W/attention.log | head -20 | tee -a "$OUT/summary.txt"
}

want ab && {
stage "A/B: the fused kernel with FLASH_MIN_BLOCKS 3 (168 registers) against 2, prefill shapes"
sed -i 's/^#define FLASH_MIN_BLOCKS 2/#define FLASH_MIN_BLOCKS 3/' kernels/cu/attention.cu
go build -tags cuda -o /tmp/pg3 ./cmd/perfgate
sed -i 's/^#define FLASH_MIN_BLOCKS 3/#define FLASH_MIN_BLOCKS 2/' kernels/cu/attention.cu
for v in pg pg3; do
  timeout 60 /tmp/$v run "${meta[@]}" --suite attention --max-time "$MAXTIME" --filter 'tiled/.*s=(2048|4096)/.*mode=cold' --out $W/ab-$v.json 2>> $W/ab.log
done
python3 - $W/ab-pg.json $W/ab-pg3.json <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
a, b = ({x["name"]: x["metrics"].get("median_us") for x in json.load(open(f))["benchmarks"]} for f in sys.argv[1:3])
for n in a:
    print(f"{n}: min_blocks 2 {a[n]:.1f} us, 3 {b.get(n, 0):.1f} us, ratio {b.get(n, 0) / a[n]:.3f}")
PY
}

want torch && {
stage "PyTorch SDPA flash and unfused"
PYTHONUNBUFFERED=1 timeout 150 python3 docs/results/torch_attention.py > $W/h100-torch-attention.jsonl 2> $W/torch.err
echo "torch exit $? ($(wc -l < $W/h100-torch-attention.jsonl) records)" | tee -a "$OUT/summary.txt"
tail -3 $W/torch.err >> "$OUT/summary.txt"
$pg ingest --format sdpa-jsonl --suite torch-sdpa "${meta[@]}" --out $W/h100-torch-attention-ingested.json $W/h100-torch-attention.jsonl 2>> "$OUT/summary.txt"
echo "ingest exit $?" >> "$OUT/summary.txt"
}

want decode && {
stage "perfgate run --suite decode --max-time $MAXTIME"
timeout 120 $pg run "${meta[@]}" --suite decode --max-time "$MAXTIME" --out $W/h100-decode.json 2> $W/decode.log
echo "decode exit $?" | tee -a "$OUT/summary.txt"
grep -E "ERROR|failed" $W/decode.log | head -20 | tee -a "$OUT/summary.txt"
}

stage tables
{
  for m in "cold cold" "batch batch" "batch graph"; do
    python3 docs/results/attention_table.py $W/h100-attention.json $W/h100-torch-attention.jsonl $m; echo
  done
  python3 - $W/h100-decode.json <<'PY'
import json, sys
try:
    bs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if not b.get("error")]
except Exception as e:
    sys.exit(f"no decode results: {e}")
print("| decode | dtype | L | mode | µs/step | tokens/s | ×per_launch | cv | max abs err |")
print("|---|---|---|---|---|---|---|---|---|")
for b in bs:
    p, m = b["params"], b["metrics"]
    print(f"| {b['name'].split('/')[0]} | {p['dtype']} | {p['l']} | {p['mode']} | {m['median_us']:.2f} | {m.get('tokens_per_s', 0):.3g} | {m.get('speedup_vs_per_launch', 0):.2f} | {100*m.get('cv', 0):.2f}% | {m.get('max_abs_err_vs_cpu', -1):.2g} |")
PY
  python3 - $W/h100-attention.json <<'PY'
import json, sys
bs = json.load(open(sys.argv[1]))["benchmarks"]
print()
print("| attention | cold/batch | cv | max abs err vs cpu | vs naive | p99/median |")
print("|---|---|---|---|---|---|")
for b in bs:
    m = b.get("metrics", {})
    if b.get("error"):
        print(f"| {b['name']} | ERROR {b['error'][:120]} |"); continue
    print(f"| {b['name']} | {m['median_us']:.2f} | {100*m.get('cv',0):.2f}% | {m.get('max_abs_err_vs_cpu',-1):.2g} | {m.get('max_abs_err_vs_naive',-1):.2g} | {m.get('p99_us',0)/m['median_us']:.3f} |")
PY
} > "$OUT/table.md" 2>&1
head -40 "$OUT/table.md"
cp "$OUT/summary.txt" $W/
(cd /tmp && tar -czf "$OUT/results.tar.gz" att)
stage done
