#!/usr/bin/env bash
# Whole-process comparison of perfgate with benchstat on the same `go test -bench` text
# (docs/speed.md). For 1,000 and 10,000 benchmarks (-count 10, three units a line) it times
#   perfgate: ingest old.txt, ingest new.txt, compare the two results files (three processes)
#   benchstat old.txt new.txt
# interleaved, REPS times each, with /usr/bin/time -v, and prints min/median wall time and
# peak RSS of each and their ratios (perfgate / benchstat). perfgate's time is the sum of its
# three processes, its RSS the largest of them.
#
# Usage: docs/speed/compare-benchstat.sh [REPS] [SIZES]     (defaults: 5, "1000 10000")
# benchstat is installed at the pinned version below into a temporary directory (go install):
# a tool for this comparison only, not a dependency of perfgate.
set -euo pipefail
BENCHSTAT=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
reps=${1:-5}
sizes=${2:-"1000 10000"}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
GOBIN=$work/bin go install "$BENCHSTAT"
(cd "$root" && go build -o "$work/bin/perfgate" ./cmd/perfgate)
pg=$work/bin/perfgate bs=$work/bin/benchstat

# gen N SEED SHIFT: go test -bench output of N benchmarks, 10 runs each; every 7th
# benchmark's time is multiplied by SHIFT.
gen() {
  awk -v n="$1" -v seed="$2" -v shift="$3" 'BEGIN {
    srand(seed)
    print "goos: linux"; print "goarch: amd64"; print "pkg: example.com/kernels"; print "cpu: AMD EPYC"
    for (c = 0; c < 10; c++)
      for (i = 0; i < n; i++) {
        m = (1000 + i) * (i % 7 == 0 ? shift : 1) * (1 + 0.02 * (rand() - 0.5))
        printf "BenchmarkKernel/size=%05d-8 \t 1000000\t %10.1f ns/op\t %6d B/op\t %4d allocs/op\n", i, m, 64 * (i % 5), i % 5
      }
    print "PASS"; print "ok  \texample.com/kernels\t12.345s"
  }'
}

# timed OUT CMD...: runs CMD, appends "seconds maxrss_kb" to OUT; exit status 0 or 1 is success.
timed() {
  local out=$1; shift
  local rc=0
  /usr/bin/time -v -o "$work/time.txt" "$@" > "$work/stdout.txt" 2> "$work/stderr.txt" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "failed ($rc): $*" >&2; cat "$work/stderr.txt" >&2; exit 1; fi
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
              /Maximum resident set size/ { rss = $2 } END { print s, rss }' "$work/time.txt" >> "$out"
}

# stats FILE: min and median of column 1 (seconds) and 2 (KB).
stats() { sort -n -k1 "$1" | awk '{ t[NR] = $1 } END { printf "%s %s ", t[1], t[int((NR + 1) / 2)] }'
          sort -n -k2 "$1" | awk '{ m[NR] = $2 } END { printf "%s %s\n", m[1], m[int((NR + 1) / 2)] }'; }

meta=(--repo acme/kernels --commit 0123456789abcdef0123456789abcdef01234567 --branch main --event local --testbed bench)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; benchstat $BENCHSTAT"
printf "%-8s %-10s %9s %9s %10s %10s\n" benchmarks tool "min s" "median s" "min MB" "median MB"
for n in $sizes; do
  gen "$n" 1 1.00 > "$work/old.txt"
  gen "$n" 2 1.10 > "$work/new.txt"
  : > "$work/pg.$n"; : > "$work/bs.$n"
  for _ in $(seq "$reps"); do
    : > "$work/parts"
    timed "$work/parts" "$pg" ingest --format gotest --run-id old "${meta[@]}" --out "$work/old.json" "$work/old.txt"
    timed "$work/parts" "$pg" ingest --format gotest --run-id new "${meta[@]}" --out "$work/new.json" "$work/new.txt"
    timed "$work/parts" "$pg" compare --baseline "$work/old.json" --candidate "$work/new.json"
    awk '{ s += $1; if ($2 > m) m = $2 } END { print s, m }' "$work/parts" >> "$work/pg.$n"
    timed "$work/bs.$n" "$bs" "$work/old.txt" "$work/new.txt"
  done
  read -r pmin pmed pmmin pmmed < <(stats "$work/pg.$n")
  read -r bmin bmed bmmin bmmed < <(stats "$work/bs.$n")
  awk -v n="$n" -v a="$pmin $pmed $pmmin $pmmed" -v b="$bmin $bmed $bmmin $bmmed" 'BEGIN {
    split(a, p, " "); split(b, q, " ")
    printf "%-10s %-10s %9.3f %9.3f %10.1f %10.1f\n", n, "perfgate", p[1], p[2], p[3] / 1024, p[4] / 1024
    printf "%-10s %-10s %9.3f %9.3f %10.1f %10.1f\n", n, "benchstat", q[1], q[2], q[3] / 1024, q[4] / 1024
    printf "%-10s %-10s %9.2f %9.2f %10.2f %10.2f\n", n, "ratio", p[1] / q[1], p[2] / q[2], p[3] / q[3], p[4] / q[4]
  }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
