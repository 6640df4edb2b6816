#!/usr/bin/env bash
# device.sh: issue 31 on the GPU machine: perfgate's Python harness with
# torch, side by side with the Go harness and triton.testing.do_bench, and
# the python: suites of examples/python with a deliberately slowed Triton
# kernel. About 3-4 minutes on an H100; every part goes on after a failure.
#   source .gpu/gpu-env.sh && bash docs/results/python/device.sh
# Logs and results under $OUT; the table at the end (also $OUT/table.txt).
#   (a) the harness's Python tests with torch (tests/test_torch.py runs here)
#   (b) Go harness vs Python harness, medians: perfgate's add fp32 (4K, 1M,
#       16M) vs torch.add; examples/kernels/saxpy.cu as a kernel suite vs the
#       same PTX loaded into torch (saxpy_nvrtc.py) as a python suite
#   (c) triton.testing.do_bench and perfgate_harness.do_bench on the same work
#   (d) perfgate run --config examples/python/.perfgate.yml, then again with
#       SLOW_TRITON_ADD=1, then perfgate compare: triton_add should regress,
#       nothing else
#   (e) perfgate summary of those runs, with --charts and --format csv
set -u
OUT=${OUT:-/tmp/perfgate-out}
mkdir -p "$OUT"
here=docs/results/python
pg=/tmp/pg-python
sum=$OUT/summary.txt
: > "$sum"
note() { echo "$*" | tee -a "$sum"; }
part() { # part NAME TIMEOUT CMD...: run CMD with a timeout, log to $OUT/NAME.log, note exit and time
  local name=$1 limit=$2 s rc
  shift 2
  s=$(date +%s)
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  rc=$?
  note "$name: exit $rc in $(($(date +%s) - s)) s"
  [ $rc -eq 0 ] || tail -5 "$OUT/$name.log" | sed 's/^/    /' | tee -a "$sum"
  return 0
}
note "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader)"
note "$(python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -1)"
part build 240 go build -tags cuda -o $pg ./cmd/perfgate

# (a)
part a-python-tests 120 bash -c 'cd pyharness && python3 -m unittest discover -s tests -t . -v'

# (b) the Go harness, then the Python harness on the same work
part b-go-add 90 $pg run --suite elementwise --size small --dtype fp32 --op add --out "$OUT/go-add.json"
part b-go-saxpy 120 $pg run --config examples/kernels/.perfgate.yml --suite saxpy --out "$OUT/go-saxpy.json"
part b-python 180 $pg run --config $here/.perfgate.yml --out "$OUT/py.json"

# (c)
part c-dobench 120 python3 $here/dobench.py "$OUT/dobench.json"

# (d)
part d-examples-base 150 $pg run --config examples/python/.perfgate.yml --fast --out "$OUT/examples-base.json"
part d-examples-slow 150 env SLOW_TRITON_ADD=1 $pg run --config examples/python/.perfgate.yml --fast --out "$OUT/examples-slow.json"
$pg compare "$OUT/examples-base.json" "$OUT/examples-slow.json" --format json > "$OUT/examples-compare.json" 2> "$OUT/d-compare.log"
note "d-compare: perfgate compare base slow: exit $? (1 = a regression found)"
$pg compare "$OUT/examples-base.json" "$OUT/examples-slow.json" > "$OUT/examples-compare.md" 2>&1
# The seeds' per-run report of what ran (tables, CSV, charts): no GPU needed.
part e-summary 60 $pg summary --charts "$OUT/charts" --out "$OUT/summary.md" "$OUT/py.json" "$OUT/examples-base.json" "$OUT/go-saxpy.json"
$pg summary --format csv "$OUT/examples-base.json" > "$OUT/examples-base.csv" 2>> "$OUT/e-summary.log"

python3 $here/table.py "$OUT" > "$OUT/table.txt" 2>&1
cat "$sum"
echo
cat "$OUT/table.txt"
