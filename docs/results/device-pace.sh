#!/usr/bin/env bash
# device-pace.sh measures sample pacing under the power cap (docs/gpu.md,
# "Noise") in one call on the lent GPU machine:
#   source .gpu/gpu-env.sh && bash docs/results/device-pace.sh
# BASE (optional) is a copy of the tree before pacing: built as /tmp/pg0, it
# is the "before" process. PACES lists --pace values for the new build, each
# run as its own process over FILTER (default: the attention prefill shapes).
# STAGES picks stages (default: all): test pace launch torch other (launch: the
# launch-bound attention shapes, for the naive/unfused table). Everything lands
# in $OUT: summary.txt, table.md, results.tar.gz.
set -uo pipefail
STAGES=${STAGES:-test pace launch torch other}
MAXTIME=${MAXTIME:-2s}
PACES=${PACES:-off auto}
FILTER=${FILTER:-attention/.*/b=(8/h=16/s=2048|1/h=32/s=4096)/}
OTHER=${OTHER:-elementwise:fp32 gemm} # SUITE[:DTYPES], --size small, before (BASE) and after
want() { [[ " $STAGES " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/perfgate-out}
W=/tmp/pace
mkdir -p "$OUT" $W
sha=$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }
meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$sha" --branch main --event push)

stage build
go build -tags cuda -o /tmp/pg ./cmd/perfgate || exit 1
if [ -n "${BASE:-}" ]; then
  (cd "$BASE" && ln -sfn "$OLDPWD/.gpu/vendor" vendor && go build -tags cuda -o /tmp/pg0 ./cmd/perfgate) || exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv >> "$OUT/summary.txt"

want test && {
stage "go test -tags cuda ./kernels/... (PERFGATE_REQUIRE_GPU=$PERFGATE_REQUIRE_GPU)"
timeout 200 go test -tags cuda -count=1 -v ./kernels/... > $W/test.log 2>&1
echo "go test exit $?" | tee -a "$OUT/summary.txt"
grep -E "^(--- FAIL|ok|FAIL)" $W/test.log | tee -a "$OUT/summary.txt"
}

labels=()
want pace && {
if [ -n "${BASE:-}" ]; then
  stage "before (BASE build): perfgate run --filter $FILTER --max-time $MAXTIME"
  timeout 300 /tmp/pg0 run "${meta[@]}" --suite attention --filter "$FILTER" --max-time "$MAXTIME" --out $W/before.json 2> $W/before.log
  echo "before exit $?" | tee -a "$OUT/summary.txt"; labels+=(before=$W/before.json)
fi
for p in $PACES; do
  stage "--pace $p: perfgate run --filter $FILTER --max-time $MAXTIME"
  timeout 300 /tmp/pg run "${meta[@]}" --suite attention --filter "$FILTER" --max-time "$MAXTIME" --pace "$p" --out $W/pace-$p.json 2> $W/pace-$p.log
  echo "pace $p exit $?" | tee -a "$OUT/summary.txt"; labels+=(pace-$p=$W/pace-$p.json)
done
}

want launch && {
stage "launch-bound attention shapes (new build, auto): --filter s=(128|256)/ --max-time 1s"
timeout 200 /tmp/pg run "${meta[@]}" --suite attention --filter 'attention/.*/s=(128|256)/' --max-time 1s --out $W/launch.json 2> $W/launch.log
echo "launch exit $?" | tee -a "$OUT/summary.txt"
}

want torch && {
stage "PyTorch SDPA flash and unfused (cold, batch, graph, queued; PACE=${TORCH_PACE:-1})"
PACE=${TORCH_PACE:-1} PYTHONUNBUFFERED=1 timeout 200 python3 docs/results/torch_attention.py > $W/torch-attention.jsonl 2> $W/torch.err
echo "torch exit $? ($(wc -l < $W/torch-attention.jsonl) records)" | tee -a "$OUT/summary.txt"
tail -3 $W/torch.err >> "$OUT/summary.txt"
}

want other && {
for sd in $OTHER; do
  s=${sd%%:*} dt=()
  [[ $sd == *:* ]] && dt=(--dtype "${sd#*:}")
  for v in pg0 pg; do
    [ -x /tmp/$v ] || continue
    stage "$v: perfgate run --suite $s ${dt[*]} --size small --max-time 1s"
    timeout 200 /tmp/$v run "${meta[@]}" --suite $s "${dt[@]}" --size small --max-time 1s --out $W/$s-$v.json 2> $W/$s-$v.log
    echo "$s $v exit $?" | tee -a "$OUT/summary.txt"
  done
  python3 - $W/$s-pg0.json $W/$s-pg.json <<'PY' | tee -a "$OUT/summary.txt"
import json, sys, statistics
try:
    a, b = ({x["name"]: x for x in json.load(open(f))["benchmarks"] if not x.get("error")} for f in sys.argv[1:3])
except Exception as e:
    sys.exit(f"no comparison: {e}")
r = [b[n]["metrics"]["median_us"] / a[n]["metrics"]["median_us"] for n in a if n in b]
paced = [n for n in b if "pacing" in b[n]["info"]]
print(f"{sys.argv[2]}: {len(r)} benchmarks, after/before median ratio: median {statistics.median(r):.3f}, min {min(r):.3f}, max {max(r):.3f}; paced after: {len(paced)} {paced[:4]}")
PY
done
}

stage tables
{
  python3 docs/results/pace_summary.py "${labels[@]}"
  echo
  for f in launch pace-auto; do
    for m in "batch queued" "batch graph" "batch batch" "cold cold"; do
      [ -f $W/$f.json ] && python3 docs/results/attention_table.py $W/$f.json $W/torch-attention.jsonl $m && echo
    done
  done
} > "$OUT/table.md" 2>&1
head -60 "$OUT/table.md"
cp "$OUT/summary.txt" $W/
(cd /tmp && tar -czf "$OUT/results.tar.gz" pace)
stage done
