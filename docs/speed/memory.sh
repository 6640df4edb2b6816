#!/usr/bin/env bash
# Peak memory (max resident set, /usr/bin/time) of whole perfgate processes as a multiple of
# their input (docs/speed.md, issue 12: "peak memory ≤ 3× the input for compare, record and
# check"), at two sizes: N benchmarks × S samples per run. For each size it writes compact
# results files (three baseline runs of main and one candidate, every 7th benchmark 10% slower)
# and measures, REPS times each, the binary in $BEFORE (when given) and this checkout's build
# in alternating invocations:
#   compare --baseline base.json --candidate cand.json        input: the two files
#   record --store DIR cand.json (a fresh store)              input: the file
#   record --db URL cand.json (a fresh scratch database)      input: the file
#   check --store DIR cand.json (a store of the 3 baselines)  input: the file + the 3 run files read
#   record --db DOWN --spool DIR cand.json (no server: spools)  input: the file
#   upload --db URL --spool DIR (cand.json spooled, fresh db)  input: the spooled file
# It prints min and median peak RSS (MB, 10^6 bytes), their ratio to the input, min and median
# CPU seconds (user + system), and the load average before and after.
#
# Usage: docs/speed/memory.sh [REPS] [SIZES]   (defaults: 3, "10000x100 10000x1300")
# PERFGATE=path tests a prebuilt binary instead of building this checkout; BEFORE=path adds the
# older binary; CASES="record-store record-pg" measures only those (compare record-store
# check-store record-pg). Postgres is measured when PERFGATE_TEST_DATABASE_URL names a server; the script
# creates and drops the database perfgate_speed_memory there.
set -euo pipefail
reps=${1:-3}
sizes=${2:-10000x100 10000x1300}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$work/bin"
if [ -n "${PERFGATE:-}" ]; then cp "$PERFGATE" "$work/bin/after"; else (cd "$root" && go build -o "$work/bin/after" ./cmd/perfgate); fi
bins=(after)
if [ -n "${BEFORE:-}" ]; then cp "$BEFORE" "$work/bin/before"; bins=(before after); fi

u=${PERFGATE_TEST_DATABASE_URL:-}
if [ -n "$u" ]; then
  db=${u%%\?*}; db=${db%/*}/perfgate_speed_memory; [ "$u" != "${u%%\?*}" ] && db="$db?${u#*\?}"
  trap 'psql "$u" -qc "drop database if exists perfgate_speed_memory" 2>/dev/null; rm -rf "$work"' EXIT
fi

# gen N S SEED SHIFT BRANCH OUT: a compact results file of N benchmarks × S samples.
gen() {
  awk -v n="$1" -v s="$2" -v seed="$3" -v shift="$4" -v branch="$5" 'BEGIN {
    srand(seed)
    printf "{\"schema\":\"perfgate.results/v1\",\"run\":{\"id\":\"run-%d\",\"repo\":\"acme/kernels\",\"commit\":\"%040x\",\"branch\":\"%s\",\"event\":\"push\",\"testbed\":\"bench\",\"started_at\":\"2026-11-20T10:15:%02dZ\"},\"benchmarks\":[\n", seed, seed, branch, seed
    for (i = 0; i < n; i++) {
      m = (1000 + i) * (i % 7 == 0 ? shift : 1)
      printf "%s{\"suite\":\"gotest\",\"name\":\"BenchmarkKernel/size=%05d\",\"unit\":\"ns\",\"better\":\"lower\",\"samples\":[", (i ? ",\n" : ""), i
      for (c = 0; c < s; c++) printf "%s%.1f", (c ? "," : ""), m * (1 + 0.02 * (rand() - 0.5))
      printf "]}"
    }
    print "]}"
  }' > "$6"
}

# peak OUT CMD...: runs CMD, appends its max RSS (KiB) and CPU seconds (user + system) to OUT;
# exit status 0 or 1 is success.
peak() {
  local out=$1; shift
  local rc=0
  /usr/bin/time -f '%M %U %S' -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt" || rc=$?
  if [ "$rc" -gt 1 ] && [ "$rc" -ne "${OKRC:-1}" ]; then echo "failed ($rc): $*" >&2; cat "$work/stderr.txt" >&2; exit 1; fi
  tail -n 1 "$work/time.txt" | awk '{ print $1, $2 + $3 }' >> "$out"
}
size() { stat -c %s "$@" | awk '{ s += $1 } END { print s }'; }

# run BIN CASE: one measurement of CASE with BIN.
run() {
  local bin=$work/bin/$1 out=$work/$1.$2
  case $2 in
    compare) peak "$out" "$bin" compare --baseline "$work/base1.json" --candidate "$work/cand.json" ;;
    record-store) rm -rf "$work/rs"; peak "$out" "$bin" record --store "$work/rs" "$work/cand.json" ;;
    record-pg)
      psql "$u" -qc "drop database if exists perfgate_speed_memory" -c "create database perfgate_speed_memory"
      "$bin" migrate --db "$db" > /dev/null
      peak "$out" "$bin" record --db "$db" "$work/cand.json" ;;
    check-store) peak "$out" "$bin" check --store "$work/cs" "$work/cand.json" ;;
    spool) rm -rf "$work/sp" # port 1 refuses: record exits 3 and spools the run
      OKRC=3 peak "$out" "$bin" record --db "postgres://perfgate@127.0.0.1:1/none?sslmode=disable" --spool "$work/sp" "$work/cand.json" ;;
    upload-pg)
      psql "$u" -qc "drop database if exists perfgate_speed_memory" -c "create database perfgate_speed_memory"
      "$bin" migrate --db "$db" > /dev/null
      rm -rf "$work/up"; cp -r "$work/spooled" "$work/up"
      peak "$out" "$bin" upload --db "$db" --spool "$work/up" ;;
  esac
}

cases=(compare record-store check-store spool)
[ -n "$u" ] && cases+=(record-pg upload-pg)
if [ -n "${CASES:-}" ]; then read -ra cases <<< "$CASES"; fi
printf '%-10s %-13s %-7s %9s %9s %9s %7s %7s %8s %8s  %s\n' size command binary "input MB" "min MB" "med MB" "÷ in" "med ÷" "min cpu" "med cpu" load
for sz in $sizes; do
  n=${sz%x*} s=${sz#*x}
  gen "$n" "$s" 1 1.00 main "$work/base1.json"
  for k in 2 3; do # the same samples, another run
    sed "1s/run-1/run-$k/; 1s/:01Z/:0${k}Z/; 1s/0001\"/000$k\"/" "$work/base1.json" > "$work/base$k.json"
  done
  gen "$n" "$s" 9 1.10 feature "$work/cand.json"
  rm -rf "$work/cs"
  "$work/bin/after" record --store "$work/cs" "$work/base1.json" "$work/base2.json" "$work/base3.json" > /dev/null
  rm -rf "$work/spooled"
  "$work/bin/after" record --db "postgres://perfgate@127.0.0.1:1/none?sslmode=disable" --spool "$work/spooled" "$work/cand.json" > /dev/null 2>&1 || true
  for c in "${cases[@]}"; do
    for b in "${bins[@]}"; do : > "$work/$b.$c"; done
    load=$(cut -d' ' -f1 /proc/loadavg)
    for _ in $(seq "$reps"); do for b in "${bins[@]}"; do run "$b" "$c"; done; done
    case $c in
      compare) in=$(size "$work/base1.json" "$work/cand.json") ;;
      check-store) in=$(( $(size "$work/cand.json") + $(size "$work"/cs/runs/*.json) )) ;;
      upload-pg) in=$(size "$work"/spooled/*.json) ;;
      *) in=$(size "$work/cand.json") ;;
    esac
    for b in "${bins[@]}"; do
      cpu=$(sort -g -k2 "$work/$b.$c" | awk '{ v[NR] = $2 } END { printf "%.2f %.2f", v[1], v[int((NR + 1) / 2)] }')
      sort -n "$work/$b.$c" | awk -v sz="$sz" -v c="$c" -v b="$b" -v inb="$in" -v cpu="$cpu" -v ld="$load-$(cut -d' ' -f1 /proc/loadavg)" '
        { v[NR] = $1 } END { mn = v[1] * 1024; md = v[int((NR + 1) / 2)] * 1024; split(cpu, t, " ")
          printf "%-10s %-13s %-7s %9.1f %9.1f %9.1f %7.2f %7.2f %8s %8s  %s\n", sz, c, b, inb / 1e6, mn / 1e6, md / 1e6, mn / inb, md / inb, t[1], t[2], ld }'
    done
  done
done
