#!/usr/bin/env bash
# Whole-process comparison of perfgate with benchstat on the same `go test -bench` text
# (docs/speed.md). For 2,000 and 10,000 benchmarks (-count 10, three units a line) it times
#   perfgate compare old.txt new.txt                     (one process, the text read as it is)
#   benchstat old.txt new.txt                            (what a benchstat user types: all three units)
#   benchstat -filter .unit:sec/op old.txt new.txt       (the same work as perfgate: ns/op only)
# interleaved, REPS times each, with /usr/bin/time -v, and prints min/median wall time and
# peak RSS of each and perfgate's ratios to both. Then it checks that the two agree on the
# direction of each benchmark's change (see directions below) and prints the counts.
#
# Usage: docs/speed/compare-benchstat.sh [REPS] [SIZES]     (defaults: 5, "2000 10000")
# benchstat is installed at the pinned version below into a temporary directory (go install):
# a tool for this comparison only, not a dependency of perfgate. Needs python3 (standard
# library only) for the direction check.
set -euo pipefail
BENCHSTAT=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
reps=${1:-5}
sizes=${2:-"2000 10000"}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "needs python3 for the direction check" >&2; exit 2; }
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

# directions PERFGATE_JSON BENCHSTAT_CSV: the sec/op table of benchstat against perfgate's
# report, benchmark by benchmark. benchstat calls a change +, - or ~ (p >= 0.05, no
# correction for the number of benchmarks, no threshold); perfgate gives a verdict
# (alpha 0.01 after Benjamini-Hochberg, 10% threshold) and the change's estimate. They
# agree on the direction when every change benchstat calls has perfgate's estimate of the
# same sign, and perfgate's verdicts regression and improvement only fall on changes
# benchstat calls in that direction.
directions() {
  python3 - "$1" "$2" <<'EOF'
import csv, json, re, sys
pg = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    pg[b["name"]] = b
bs, table = {}, None
for row in csv.reader(open(sys.argv[2])):
    if len(row) > 1 and row[1] in ("sec/op", "B/op", "allocs/op"):
        table = row[1]
    elif table == "sec/op" and len(row) >= 6 and row[0] not in ("", "geomean"):
        name = "Benchmark" + re.sub(r"-\d+$", "", row[0])
        bs[name] = "~" if row[5].startswith("~") else row[5][0]
counts, disagree = {}, []
for name, d in bs.items():
    b = pg[name]
    sign = "+" if b["change"] > 0 else "-" if b["change"] < 0 else "0"
    counts[(d, b["verdict"], sign)] = counts.get((d, b["verdict"], sign), 0) + 1
    worse = "+" if b["better"] == "lower" else "-"
    called = {"regression": worse, "improvement": "-" if worse == "+" else "+"}.get(b["verdict"])
    if (d != "~" and sign != d) or (called and called != d):
        disagree.append(name)
if len(bs) != len(pg):
    sys.exit(f"benchstat compared {len(bs)} benchmarks, perfgate {len(pg)}")
for (d, v, s), n in sorted(counts.items()):
    print(f"  benchstat {d}  perfgate {v:<11} change {s}  {n:6d}")
print(f"  direction: {len(bs) - len(disagree)} of {len(bs)} agree" + (f"; not: {', '.join(disagree[:5])}" if disagree else ""))
EOF
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; benchstat $BENCHSTAT"
printf "%-10s %-22s %9s %9s %10s %10s\n" benchmarks tool "min s" "median s" "min MB" "median MB"
for n in $sizes; do
  gen "$n" 1 1.00 > "$work/old.txt"
  gen "$n" 2 1.10 > "$work/new.txt"
  : > "$work/pg.$n"; : > "$work/bs.$n"; : > "$work/bsns.$n"
  for _ in $(seq "$reps"); do
    timed "$work/pg.$n" "$pg" compare "$work/old.txt" "$work/new.txt"
    timed "$work/bs.$n" "$bs" "$work/old.txt" "$work/new.txt"
    timed "$work/bsns.$n" "$bs" -filter .unit:sec/op "$work/old.txt" "$work/new.txt"
  done
  read -r pmin pmed pmmin pmmed < <(stats "$work/pg.$n")
  for b in bs bsns; do
    read -r bmin bmed bmmin bmmed < <(stats "$work/$b.$n")
    label=benchstat; [ "$b" = bsns ] && label="benchstat sec/op only"
    awk -v n="$n" -v l="$label" -v a="$pmin $pmed $pmmin $pmmed" -v b="$bmin $bmed $bmmin $bmmed" -v first="$b" 'BEGIN {
      split(a, p, " "); split(b, q, " ")
      if (first == "bs") printf "%-10s %-22s %9.3f %9.3f %10.1f %10.1f\n", n, "perfgate compare", p[1], p[2], p[3] / 1024, p[4] / 1024
      printf "%-10s %-22s %9.3f %9.3f %10.1f %10.1f\n", n, l, q[1], q[2], q[3] / 1024, q[4] / 1024
      printf "%-10s %-22s %9.2f %9.2f %10.2f %10.2f\n", n, "ratio to it", p[1] / q[1], p[2] / q[2], p[3] / q[3], p[4] / q[4]
    }'
  done
  rc=0
  "$pg" compare --format json "$work/old.txt" "$work/new.txt" > "$work/pg.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "perfgate compare failed ($rc)" >&2; exit 1; }
  "$bs" -format csv "$work/old.txt" "$work/new.txt" > "$work/bs.csv" 2> /dev/null
  directions "$work/pg.json" "$work/bs.csv"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
