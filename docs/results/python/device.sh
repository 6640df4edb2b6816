#!/usr/bin/env bash
# device.sh: issue 31 on the GPU machine: perfgate's Python harness with
# torch, side by side with the Go harness and triton.testing.do_bench, and
# the python: suites of examples/python with a deliberately slowed Triton
# kernel. About 5-6 minutes on an H100; every part goes on after a failure.
#   source .gpu/gpu-env.sh && bash docs/results/python/device.sh
# $OUT gets four files, so that all of them come back through a tool that
# returns only a few dozen: summary.txt (each part's exit status and time),
# table.txt (the last table), agreement.txt (agreement.py's tables) and
# results.tar.gz (every log, results file, chart and the PTX both sides
# compiled; repacked after each part, so a run cut short still returns what
# it did). ONLY="build b-go-add b-go-saxpy b-python" runs the parts named.
#   (a) the harness's Python tests with torch (tests/test_torch.py runs here)
#   (b) Go harness vs Python harness, medians: perfgate's add fp32 (4K, 1M,
#       16M) and examples/kernels/saxpy.cu as a kernel suite vs the same PTX,
#       grid and inputs loaded into torch (gokernels.py) as python suites,
#       and torch.add beside them
#   (c) triton.testing.do_bench and perfgate_harness.do_bench on the same work
#   (d) perfgate run --config examples/python/.perfgate.yml, then again with
#       SLOW_TRITON_ADD=1, then perfgate compare: triton_add should regress,
#       nothing else
#   (e) perfgate summary of those runs, with --charts and --format csv
#   (f) agreement.py: the 1M-element differences, one suspect at a time
set -u
OUT=${OUT:-/tmp/perfgate-out}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/perfgate-python.XXXXXX)
export PERFGATE_CACHE=$W/cache # the Go harness's PTX lands in $W/cache/ptx, for agreement.py
here=docs/results/python
pg=/tmp/pg-python
sum=$OUT/summary.txt
: > "$sum"
note() { echo "$*" | tee -a "$sum"; }
pack() { # every file of $W but the extracted harness, into one archive, replaced atomically
  tar -czf "$W.tar.gz" -C "$W" --exclude=./cache/pyharness . 2>/dev/null && mv "$W.tar.gz" "$OUT/results.tar.gz"
}
part() { # part NAME TIMEOUT CMD...: run CMD with a timeout, log to $W/NAME.log, note exit and time
  local name=$1 limit=$2 s rc
  shift 2
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return 0; fi # ONLY="build b-go-add …": those parts only
  s=$(date +%s)
  timeout "$limit" "$@" > "$W/$name.log" 2>&1
  rc=$?
  note "$name: exit $rc in $(($(date +%s) - s)) s"
  [ $rc -eq 0 ] || tail -5 "$W/$name.log" | sed 's/^/    /' | tee -a "$sum"
  pack
  return 0
}
note "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader)"
note "$(python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -1)"
part build 240 go build -tags cuda -o $pg ./cmd/perfgate

# (a)
part a-python-tests 180 bash -c 'cd pyharness && python3 -m unittest discover -s tests -t . -v'

# (b) the Go harness, then the Python harness on the same work
part b-go-add 90 $pg run --suite elementwise --size small --dtype fp32 --op add --out "$W/go-add.json"
part b-go-saxpy 120 $pg run --config examples/kernels/.perfgate.yml --suite saxpy --out "$W/go-saxpy.json"
part b-python 240 $pg run --config $here/.perfgate.yml --out "$W/py.json"

# (c)
part c-dobench 120 python3 $here/dobench.py "$W/dobench.json"

# (d)
part d-examples-base 150 $pg run --config examples/python/.perfgate.yml --fast --out "$W/examples-base.json"
part d-examples-slow 150 env SLOW_TRITON_ADD=1 $pg run --config examples/python/.perfgate.yml --fast --out "$W/examples-slow.json"
$pg compare "$W/examples-base.json" "$W/examples-slow.json" --format json > "$W/examples-compare.json" 2> "$W/d-compare.log"
note "d-compare: perfgate compare base slow: exit $? (1 = a regression found)"
$pg compare "$W/examples-base.json" "$W/examples-slow.json" > "$W/examples-compare.md" 2>&1
# The seeds' per-run report of what ran (tables, CSV, charts): no GPU needed.
part e-summary 60 $pg summary --charts "$W/charts" --out "$W/summary.md" "$W/py.json" "$W/examples-base.json" "$W/go-saxpy.json"
$pg summary --format csv "$W/examples-base.json" > "$W/examples-base.csv" 2>> "$W/e-summary.log"

# (f) after (b): it reads the Go results and the Go harness's PTX cache
part f-agreement 240 python3 $here/agreement.py "$W" "$PERFGATE_CACHE"
cp "$W/f-agreement.log" "$OUT/agreement.txt"

python3 $here/table.py "$W" > "$OUT/table.txt" 2>&1
cp "$sum" "$OUT/table.txt" "$W/"
pack
cat "$sum"
echo
cat "$OUT/table.txt"
echo
cat "$OUT/agreement.txt"
