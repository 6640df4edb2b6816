#!/usr/bin/env bash
# Postgres `record` of one wide run (docs/speed.md, "Third pass: Postgres"): BenchmarkRecordWide at
# 10^5 benchmarks x 100 samples (goal <= 5 s), benchmarks new to the database and known, REPS times
# each, interleaved with the test binary in $BEFORE when given (`go test -c ./db` of an older
# commit), so both see the same load. Prints min/median seconds per binary and case, and the load.
#
# Usage: PERFGATE_TEST_DATABASE_URL=postgres://... [BEFORE=old-db.test] docs/speed/record-wide.sh [REPS] [SIZE]
# (REPS default 5; SIZE default 100000: one of the benchmark's sizes, 12500 to 100000).
set -euo pipefail
reps=${1:-5}
size=${2:-100000}
: "${PERFGATE_TEST_DATABASE_URL:?names the Postgres server the db tests use}"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go test -c -o "$work/after.test" ./db)
tools=(after "$work/after.test")
if [ -n "${BEFORE:-}" ]; then tools+=(before "$BEFORE"); fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; record of $size benchmarks x 100 samples"
for _ in $(seq "$reps"); do
  for k in $(seq 0 2 $((${#tools[@]} - 1))); do
    "${tools[k+1]}" -test.run '^$' -test.bench "RecordWide/benchmarks=$size/" -test.benchtime 1x |
      awk -v b="${tools[k]}" '/^BenchmarkRecordWide/ { split($1, p, "/"); print b, p[4], $3 / 1e9 }' >> "$work/times"
  done
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
printf "%-7s %-6s %8s %9s\n" binary case "min s" "median s"
for k in $(seq 0 2 $((${#tools[@]} - 1))); do
  for c in new again; do
    awk -v b="${tools[k]}" -v c="$c" '$1 == b && $2 ~ "^" c { print $3 }' "$work/times" | sort -g |
      awk -v b="${tools[k]}" -v c="$c" '{ v[NR] = $1 } END { printf "%-7s %-6s %8.2f %9.2f\n", b, c, v[1], v[int((NR + 1) / 2)] }'
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
