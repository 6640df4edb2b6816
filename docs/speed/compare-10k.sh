#!/usr/bin/env bash
# Whole-process timing of `perfgate compare` on 10,000 benchmarks × 100 samples per side
# (docs/speed.md), paired with benchstat on the same samples so that a shared, loaded
# machine can be read as a ratio. The data (every 7th benchmark 10% slower in the new file)
# is written twice: as compact results files (7.9 MB a side) and as `go test -bench` text
# (one unit a line, -count 100); then, interleaved, REPS times each:
#   perfgate compare --baseline old.json --candidate new.json     (the goal: ≤ 0.5 s)
#   benchstat old.txt new.txt
# It prints min/median wall and CPU (user+sys) seconds and peak RSS of each, the ratios,
# and perfgate's peak RSS as a multiple of its input (the two results files; goal ≤ 3×).
#
# Usage: docs/speed/compare-10k.sh [REPS] [N]      (defaults: 5, 10000)
# PERFGATE=path uses a prebuilt binary instead of building this checkout (for before/after).
set -euo pipefail
BENCHSTAT=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
reps=${1:-5}
n=${2:-10000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
GOBIN=$work/bin go install "$BENCHSTAT"
if [ -n "${PERFGATE:-}" ]; then cp "$PERFGATE" "$work/bin/perfgate"; else (cd "$root" && go build -o "$work/bin/perfgate" ./cmd/perfgate); fi
pg=$work/bin/perfgate bs=$work/bin/benchstat

# gen N SEED SHIFT TXT JSON: the same samples as `go test -bench` text (one unit a line,
# -count 100) and as a compact results file (what record stores and check compares).
gen() {
  awk -v n="$1" -v seed="$2" -v shift="$3" -v txt="$4" -v json="$5" 'BEGIN {
    srand(seed)
    for (c = 0; c < 100; c++)
      for (i = 0; i < n; i++)
        v[i, c] = sprintf("%.1f", (1000 + i) * (i % 7 == 0 ? shift : 1) * (1 + 0.02 * (rand() - 0.5)))
    print "goos: linux" > txt; print "goarch: amd64" > txt; print "pkg: example.com/kernels" > txt
    for (c = 0; c < 100; c++)
      for (i = 0; i < n; i++)
        printf "BenchmarkKernel/size=%05d-8 \t 1000000\t %10s ns/op\n", i, v[i, c] > txt
    print "PASS" > txt
    printf "{\"schema\":\"perfgate.results/v1\",\"run\":{\"id\":\"run-%d\",\"repo\":\"acme/kernels\",\"commit\":\"0123456789abcdef0123456789abcdef0123456%d\",\"branch\":\"main\",\"event\":\"push\",\"testbed\":\"bench\",\"started_at\":\"2026-11-20T10:15:0%dZ\"},\"benchmarks\":[\n", seed, seed, seed > json
    for (i = 0; i < n; i++) {
      printf "%s{\"suite\":\"gotest\",\"name\":\"BenchmarkKernel/size=%05d\",\"unit\":\"ns\",\"better\":\"lower\",\"samples\":[", (i ? ",\n" : ""), i > json
      for (c = 0; c < 100; c++) printf "%s%s", (c ? "," : ""), v[i, c] > json
      printf "]}" > json
    }
    print "]}" > json
  }'
}
gen "$n" 1 1.00 "$work/old.txt" "$work/old.json"
gen "$n" 2 1.10 "$work/new.txt" "$work/new.json"
input_kb=$(( ($(stat -c %s "$work/old.json") + $(stat -c %s "$work/new.json")) / 1024 ))

# timed OUT CMD...: runs CMD, appends "wall cpu maxrss_kb" to OUT; exit status 0 or 1 is success.
timed() {
  local out=$1; shift
  local rc=0
  /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "failed ($rc): $*" >&2; cat "$work/stderr.txt" >&2; exit 1; fi
  awk '{ print $1, $2 + $3, $4 }' "$work/time.txt" >> "$out"
}
# stats FILE: min and median of each column.
stats() { for k in 1 2 3; do sort -g -k$k "$1" | awk -v k=$k '{ v[NR] = $k } END { printf "%s %s ", v[1], v[int((NR + 1) / 2)] }'; done; echo; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $n benchmarks x 100 samples; input $(awk -v k="$input_kb" 'BEGIN { printf "%.1f", k / 1024 }') MiB"
: > "$work/pg"; : > "$work/bs"
for _ in $(seq "$reps"); do
  timed "$work/pg" "$pg" compare --baseline "$work/old.json" --candidate "$work/new.json"
  timed "$work/bs" "$bs" "$work/old.txt" "$work/new.txt"
done
read -r pw pwm pc pcm pm pmm < <(stats "$work/pg")
read -r bw bwm bc bcm bm bmm < <(stats "$work/bs")
awk -v p="$pw $pwm $pc $pcm $pm $pmm" -v b="$bw $bwm $bc $bcm $bm $bmm" -v in_kb="$input_kb" 'BEGIN {
  split(p, x, " "); split(b, y, " ")
  printf "%-10s %8s %9s %8s %9s %8s %9s\n", "tool", "min s", "median s", "min cpu", "med cpu", "min MB", "median MB"
  printf "%-10s %8.3f %9.3f %8.3f %9.3f %8.1f %9.1f\n", "perfgate", x[1], x[2], x[3], x[4], x[5] / 1024, x[6] / 1024
  printf "%-10s %8.3f %9.3f %8.3f %9.3f %8.1f %9.1f\n", "benchstat", y[1], y[2], y[3], y[4], y[5] / 1024, y[6] / 1024
  printf "%-10s %8.3f %9.3f %8.3f %9.3f %8.2f %9.2f\n", "ratio", x[1] / y[1], x[2] / y[2], x[3] / y[3], x[4] / y[4], x[5] / y[5], x[6] / y[6]
  printf "perfgate peak RSS / input: %.2f (min) %.2f (median)\n", x[5] / in_kb, x[6] / in_kb
}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
