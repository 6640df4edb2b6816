#!/usr/bin/env bash
# device-jobs.sh: the job-to-job spread of the default PR run (docs/gpu.md,
# "Between processes"). On the GPU machine, from the repository root:
#   source .gpu/gpu-env.sh && JOBS=7 bash docs/results/spread/device-jobs.sh
# Runs JOBS jobs of `perfgate run --rounds 3` (no --suite: the six default
# suites at size ci, every round its own process) into $OUT-bound
# job-N/round-M.json, records each job's wall time and the peak RSS of its
# largest process, stops starting jobs after BUDGET seconds, prints the
# spread table (jobspread.py) and packs the jobs into $OUT/jobs.tar.gz.
# EXTRA: more `perfgate run` argument sets to run as jobs of their own after
# the default ones, separated by ';' (e.g. "--suite rowwise,gemm --size ci").
set -uo pipefail
OUT=${OUT:-/tmp/out}; here=docs/results/spread; w=/tmp/jobs; rm -rf $w; mkdir -p $w/jobs
JOBS=${JOBS:-7}; BUDGET=${BUDGET:-480}
go build -tags cuda -o $w/perfgate ./cmd/perfgate || exit 1
if [ -n "${TESTS:-}" ]; then # e.g. TESTS='TestQueuesBeforeCuInit|TestSequencesHeldInChunks'
  go test -tags cuda -count=1 -run "$TESTS" -v ./kernels/... > $OUT/go-test.log 2>&1; echo "go test -tags cuda -run $TESTS ./kernels/...: exit $?"; grep -E '^(--- |ok|FAIL)' $OUT/go-test.log
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader | tee $OUT/gpu.txt
# The testbed names the card (the runs before 2026-11-27's draws said lent-h100 whatever it was).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/NVIDIA //; s/ .*//' | tr A-Z a-z)
meta=(--repo perfgate/perfgate --testbed lent-${card:-gpu} --branch main --event push)
measure() { # measure NAME ARGS...: one job, its wall time and the largest process's peak RSS
  local name=$1; shift
  python3 - "$name" "$@" <<'PY' | tee -a $OUT/jobs.txt
import resource, subprocess, sys, time
t = time.time()
r = subprocess.run(sys.argv[2:], stderr=open(f"/tmp/jobs/jobs/{sys.argv[1]}.log", "w"))
print(f"{sys.argv[1]}: exit {r.returncode}, {time.time() - t:.1f} s, peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB")
PY
}
start=$(date +%s)
for j in $(seq 1 $JOBS); do
  [ $(( $(date +%s) - start )) -lt $BUDGET ] || { echo "budget spent: $((j-1)) jobs"; break; }
  measure job-$j $w/perfgate run "${meta[@]}" --commit $(printf '%040x' $j) --run-id job-$j --rounds 3 --out $w/jobs/job-$j/
done
[ "$JOBS" -gt 0 ] && python3 $here/jobspread.py $w/jobs default | tee $OUT/spread.txt
IFS=';' read -ra extra <<< "${EXTRA:-}"
for i in "${!extra[@]}"; do
  mkdir -p $w/extra$i
  for j in $(seq 1 ${EXTRA_JOBS:-4}); do
    [ $(( $(date +%s) - start )) -lt ${EXTRA_BUDGET:-$BUDGET} ] || break
    read -ra args <<< "${extra[$i]}"
    measure extra$i-job-$j $w/perfgate run "${meta[@]}" "${args[@]}" --commit $(printf '%040x' $((100+j))) --run-id x$i-$j --rounds 3 --out $w/extra$i/job-$j/
  done
  python3 $here/jobspread.py $w/extra$i "${extra[$i]}" | tee -a $OUT/spread.txt
done
if [ -n "${TORCH:-}" ]; then # PyTorch side by side, same call: elementwise fp32 add/gelu at 1M and 16M, and the first rowwise job's round
  $w/perfgate run "${meta[@]}" --suite elementwise --size small --filter 'elementwise/(add|gelu)/dtype=fp32/n=(1M|16M)/' --out $w/ew.json 2>> $OUT/jobs.txt
  for f in $w/ew.json $(ls $w/extra*/job-1/round-1.json 2>/dev/null | head -1); do
    python3 docs/results/torch_rowwise.py time $f > $f.torch.json && python3 docs/results/torch_rowwise.py table $f $f.torch.json >> $OUT/torch.md
  done
  tail -40 $OUT/torch.md
fi
tar -C $w -czf $OUT/jobs.tar.gz $(cd $w && ls -d jobs extra* ew.json* 2>/dev/null)
