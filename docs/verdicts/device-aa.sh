#!/usr/bin/env bash
# device-aa.sh collects the separate-process runs behind docs/verdicts.md on
# the lent GPU machine, in one call:
#   source .gpu/gpu-env.sh && bash docs/verdicts/device-aa.sh
# Each run is its own perfgate process. Iteration i runs, in a rotating order:
# the built-in suites (size small, all dtypes) as A/A run "aa-i", and the
# injected-slowdown kernel suite of docs/verdicts/inject/ in four variants
# (+0%, +5%, +15%, +25%) as runs "inj<P>-i". It stops starting iterations
# after BUDGET seconds (default 480) and packs everything into $OUT/runs.tar.gz.
# Env: ITER (max iterations, default 10), BUILTIN_ARGS (extra flags for the
# built-in runs, default --fast), BUDGET.
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
ITER=${ITER:-10}
BUDGET=${BUDGET:-480}
BUILTIN_ARGS=${BUILTIN_ARGS:---fast}
work=/tmp/aa; rm -rf $work; mkdir -p $work/runs
pg=$work/perfgate
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $OUT/gpu.txt
meta=(--repo perfgate/perfgate --testbed lent-gpu --branch main --event push)
start=$(date +%s)
for i in $(seq -w 1 $ITER); do
  [ $(( $(date +%s) - start )) -lt $BUDGET ] || break
  c=$(printf '%040x' $((0xaa000 + 10#$i)))
  jobs=(aa inj0 inj5 inj15 inj25)
  rot=$(( 10#$i % 5 ))
  for j in "${jobs[@]:$rot}" "${jobs[@]:0:$rot}"; do
    t0=$(date +%s%N)
    case $j in
      aa) timeout 240 $pg run "${meta[@]}" --commit $c --run-id aa-$i --suite memory,elementwise,microbatch,mixedops --size small $BUILTIN_ARGS --out $work/runs/aa-$i.json 2>> $work/log.txt ;;
      inj*) timeout 60 $pg run "${meta[@]}" --commit $c --run-id $j-$i --config docs/verdicts/inject/inject-${j#inj}.yml --out $work/runs/$j-$i.json 2>> $work/log.txt ;;
    esac
    echo "$i $j exit=$? $(( ($(date +%s%N) - t0) / 1000000 )) ms" | tee -a $OUT/timing.txt
  done
done
echo "total $(( $(date +%s) - start )) s" | tee -a $OUT/timing.txt
tail -20 $work/log.txt > $OUT/log-tail.txt
tar -C $work -czf $OUT/runs.tar.gz runs log.txt
ls -la $OUT
