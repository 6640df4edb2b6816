#!/usr/bin/env bash
# device-check.sh: the second GPU call behind docs/verdicts.md, on the lent
# GPU machine:
#   source .gpu/gpu-env.sh && bash docs/verdicts/device-check.sh
# 1. N_AA (default 8) A/A runs of the built-in suites (size small, all
#    dtypes, --fast), each its own perfgate process: runs aa2-NN.json.
# 2. The time a default PR check costs: one run of those suites, then the
#    same with --rounds 3 (each suite in its own process per round).
# 3. A check with confirmation end to end on the injected-slowdown kernel:
#    3 main runs of inject +0% recorded in an embedded store, a PR of
#    inject +25% in 3 rounds, `check --confirm` (3 more rounds), timed.
# Everything lands in $OUT/check.tar.gz and $OUT/timing.txt.
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
N_AA=${N_AA:-8}
work=/tmp/chk; rm -rf $work; mkdir -p $work/runs $work/rounds $work/pr
pg=$work/perfgate
t() { local t0=$(date +%s%N); "$@"; local rc=$?; echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms rc=$rc: ${*:1:6}" | tee -a $OUT/timing.txt; return $rc; }
t go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/timing.txt
meta=(--repo perfgate/perfgate --testbed lent-gpu --branch main --event push)
suites=(--suite memory,elementwise,microbatch,mixedops --size small --fast)
for i in $(seq -w 1 $N_AA); do
  c=$(printf '%040x' $((0xbb000 + 10#$i)))
  t timeout 120 $pg run "${meta[@]}" --commit $c --run-id aa2-$i "${suites[@]}" --out $work/runs/aa2-$i.json 2>>$work/log.txt
done
c=$(printf '%040x' 0xcc001)
t timeout 240 $pg run "${meta[@]}" --commit $c --run-id rounds3 "${suites[@]}" --rounds 3 --out $work/rounds/ 2>>$work/log.txt
st=$work/store
for i in 1 2 3; do
  c=$(printf '%040x' $((0xdd000 + i)))
  t timeout 60 $pg run "${meta[@]}" --commit $c --run-id inj-main-$i --config docs/verdicts/inject/inject-0.yml --out $work/pr/main-$i.json 2>>$work/log.txt
  $pg record --store $st $work/pr/main-$i.json 2>>$work/log.txt
done
c=$(printf '%040x' 0xee001)
pr=(--repo perfgate/perfgate --testbed lent-gpu --branch slow --event pull_request --pr 7 --commit $c)
t timeout 120 $pg run "${pr[@]}" --run-id inj-pr --config docs/verdicts/inject/inject-25.yml --rounds 3 --out $work/pr/pr-{round}.json 2>>$work/log.txt
t timeout 180 $pg check --store $st --config docs/verdicts/inject/inject-25.yml --confirm --format markdown $work/pr/pr-*.json > $work/check.md 2>>$work/log.txt
tail -30 $work/log.txt > $OUT/log-tail.txt
cp $work/check.md $OUT/check.md
tar -C $work -czf $OUT/check.tar.gz runs rounds pr log.txt check.md
ls -la $OUT
