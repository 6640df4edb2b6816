#!/usr/bin/env bash
# device-sharing.sh produces the sharing and cmdpath figures of docs/gpu.md in
# one call on the lent GPU machine:
#   source .gpu/gpu-env.sh && bash docs/results/device-sharing.sh
# It builds perfgate with CUDA, runs the GPU tests, the sharing suite (with a
# private MPS daemon), the cmdpath suite, and `run --devices all`, and checks
# that no MPS process is left after a success, after a worker killed mid-run
# (a failure) and after SIGTERM to perfgate (pgrep nvidia-cuda-mps). Results,
# logs and summary.txt are written to $W and packed into $OUT/results.tgz
# (summary.txt is copied to $OUT too). STAGES picks stages (default: all):
# test sharing cmdpath failure sigterm devices.
set -uo pipefail
STAGES=${STAGES:-test sharing cmdpath failure sigterm devices}
want() { [[ " $STAGES " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/perfgate-out}
W=/tmp/perfgate-sharing
mkdir -p "$OUT" "$W"
pg=/tmp/pg
sha=$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)
meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$sha" --branch main --event push)
stage() { echo "== $(date -u +%T) $*" | tee -a "$W/summary.txt"; }
# mps_check says which MPS processes exist (none is the pass).
mps_check() {
  local left
  left=$(pgrep -a nvidia-cuda-mps)
  if [ -z "$left" ]; then echo "MPS check ($1): pgrep nvidia-cuda-mps finds nothing: PASS"
  else echo "MPS check ($1): FAIL, left running: $left"; fi | tee -a "$W/summary.txt"
}

stage build
timeout 200 go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi -L | tee -a "$W/summary.txt"
nvidia-smi --query-gpu=name,driver_version,mig.mode.current,compute_mode,clocks.sm --format=csv >> "$W/summary.txt"
mps_check "before anything"

want test && {
  stage "PERFGATE_REQUIRE_GPU=1 go test -tags cuda ./kernels/..."
  PERFGATE_REQUIRE_GPU=1 timeout 150 go test -tags cuda -count=1 -v ./kernels/... > "$W/go-test.log" 2>&1
  echo "go test exit $?" | tee -a "$W/summary.txt"
  grep -E "^(--- |ok|FAIL)" "$W/go-test.log" | grep -v "^--- PASS: Test[A-Z][a-z]*$" | tail -40 >> "$W/summary.txt"
  mps_check "after go test"
}

want sharing && {
  stage "sharing suite"
  timeout 200 $pg run "${meta[@]}" --suite sharing --out "$W/h100-sharing.json" 2> "$W/sharing.log"
  echo "sharing exit $?" | tee -a "$W/summary.txt"
  mps_check "after a successful sharing run"
}

want cmdpath && {
  stage "cmdpath suite"
  timeout 150 $pg run "${meta[@]}" --suite cmdpath --max-time 1s --out "$W/h100-cmdpath.json" 2> "$W/cmdpath.log"
  echo "cmdpath exit $?" | tee -a "$W/summary.txt"
}

want failure && {
  stage "failure: kill -9 one worker in the middle of an MPS round"
  timeout 60 $pg run "${meta[@]}" --suite sharing --filter 'small_kernels/procs=8/mode=mps' --out /tmp/fail.json 2> "$W/failure.log" &
  runpid=$!
  # wait until the MPS server runs (the workers are its clients), then kill one worker
  for _ in $(seq 1 3000); do [ -n "$(pgrep -f nvidia-cuda-mps-server)" ] && break; sleep 0.01; done
  w=$(pgrep -f "$pg worker" | head -1)
  echo "killing worker ${w:-none}; MPS processes now: $(pgrep -a nvidia-cuda-mps | tr '\n' ' ')" | tee -a "$W/summary.txt"
  [ -n "$w" ] && kill -9 "$w"
  wait $runpid; echo "perfgate exit $?" | tee -a "$W/summary.txt"
  grep -o '"error": *"[^"]*"' /tmp/fail.json | head -2 | tee -a "$W/summary.txt"
  mps_check "after a worker failed"
}

want sigterm && {
  stage "SIGTERM to perfgate while MPS runs"
  timeout 60 $pg run "${meta[@]}" --suite sharing --filter 'mode=mps' --out /tmp/term.json 2> "$W/sigterm.log" &
  runpid=$!
  for _ in $(seq 1 3000); do [ -n "$(pgrep -f nvidia-cuda-mps-control)" ] && break; sleep 0.01; done
  sleep 1
  echo "MPS processes before SIGTERM: $(pgrep -a nvidia-cuda-mps | tr '\n' ' ')" | tee -a "$W/summary.txt"
  kill -TERM $runpid
  wait $runpid; echo "perfgate exit $? after SIGTERM" | tee -a "$W/summary.txt"
  tail -2 "$W/sigterm.log" >> "$W/summary.txt"
  mps_check "after SIGTERM"
}

want devices && {
  stage "run --devices all (one GPU here)"
  timeout 120 $pg run "${meta[@]}" --devices all --suite elementwise --size small --fast --dtype fp32 \
    --filter 'add/' --out "$W/h100-devices-all.json" 2> "$W/devices.log"
  echo "devices exit $?" | tee -a "$W/summary.txt"
  tail -3 "$W/devices.log" >> "$W/summary.txt"
  timeout 60 $pg run "${meta[@]}" --devices 0,1 --suite elementwise --size small --fast --filter 'add/' --out /tmp/x.json 2>> "$W/summary.txt"
  echo "devices 0,1 on one GPU: exit $? (2 expected)" | tee -a "$W/summary.txt"
}

stage done
tar -czf "$OUT/results.tgz" -C "$W" .
cp "$W/summary.txt" "$OUT/"
