#!/usr/bin/env bash
# Peak memory (max resident set, /usr/bin/time) of `perfgate check` as the history it reads for
# the run-to-run spread grows (docs/speed.md "Third pass: memory", issue 12), and a check that
# the verdicts do not change: with BEFORE=path it runs that binary and this checkout's build on
# the same stores and compares their `check --format json` and `--format markdown` byte for
# byte (cmp), exiting 1 on
# any difference.
#
# The history: N benchmarks × S samples per run, a job effect per run and benchmark (~0.5%),
# a step of +12% in every 11th benchmark from job 8 on, every 97th benchmark in us (not ns)
# in every third job, a benchmark with an error in job 4, a noisy job 6 (every 50th benchmark
# scatters 20%), a benchmark only the jobs up to 10 have, and jobs 12 and 15 in two shards
# (run groups). The candidate: every 7th benchmark 10% slower, every 13th 12% faster, every
# 29th 3% slower, every 101st noisy. The store holds 3, then 10, then 20 jobs (check reads
# --history 20 jobs, --baseline-jobs 3 of them with their samples).
#
# Usage: docs/speed/check-history.sh [REPS] [N] [S]   (defaults: 3, 10000, 100)
# PERFGATE=path tests a prebuilt binary instead of building this checkout; BEFORE=path adds the
# older binary. CPU is user + system seconds (min / median). Postgres is measured when PERFGATE_TEST_DATABASE_URL names a server; the script
# creates and drops the database perfgate_speed_history there. KEEP=DIR keeps the JSON outputs.
set -euo pipefail
reps=${1:-3} n=${2:-10000} s=${3:-100}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$work/bin" "$work/out"
if [ -n "${PERFGATE:-}" ]; then cp "$PERFGATE" "$work/bin/after"; else (cd "$root" && go build -o "$work/bin/after" ./cmd/perfgate); fi
bins=(after)
if [ -n "${BEFORE:-}" ]; then cp "$BEFORE" "$work/bin/before"; bins=(before after); fi
stores=(store)
u=${PERFGATE_TEST_DATABASE_URL:-}
if [ -n "$u" ]; then
  db=${u%%\?*}; db=${db%/*}/perfgate_speed_history; [ "$u" != "${u%%\?*}" ] && db="$db?${u#*\?}"
  trap 'psql "$u" -qc "drop database if exists perfgate_speed_history" 2>/dev/null; rm -rf "$work"' EXIT
  psql "$u" -qc "drop database if exists perfgate_speed_history" -c "create database perfgate_speed_history"
  "$work/bin/after" migrate --db "$db" > /dev/null
  stores+=(pg)
fi

# gen JOB SHARD BRANCH OUT: one run of job JOB (99: the candidate); SHARD 0 is the whole run,
# 1 and 2 the halves of a run group.
gen() {
  awk -v n="$n" -v s="$s" -v job="$1" -v shard="$2" -v branch="$3" 'BEGIN {
    srand(job * 7 + shard)
    id = "run-" job (shard ? "-" shard : "")
    grp = shard ? ",\"group\":\"job-" job "\"" : ""
    printf "{\"schema\":\"perfgate.results/v1\",\"run\":{\"id\":\"%s\",\"repo\":\"acme/kernels\",\"commit\":\"%040x\",\"branch\":\"%s\",\"event\":\"push\",\"testbed\":\"bench\",\"started_at\":\"2026-11-20T10:%02d:%02dZ\"%s},\"benchmarks\":[\n", id, job, branch, job % 60, shard * 10, grp
    first = 1
    for (i = 0; i < n; i++) {
      if (shard == 1 && i % 2 == 1 || shard == 2 && i % 2 == 0) continue
      m = (1000 + i) * (1 + 0.01 * (rand() + rand() + rand() - 1.5))
      noise = 0.02
      if (job == 99) {
        if (i % 7 == 0) m *= 1.10; else if (i % 13 == 0) m *= 0.88; else if (i % 29 == 0) m *= 1.03
        if (i % 101 == 0) noise = 0.3
      } else {
        if (job >= 8 && i % 11 == 0) m *= 1.12
        if (job == 6 && i % 50 == 0) noise = 0.4
      }
      unit = "ns"
      if (job != 99 && job % 3 == 0 && i % 97 == 0) { unit = "us"; m /= 1000 }
      printf "%s{\"suite\":\"gotest\",\"name\":\"BenchmarkKernel/size=%05d\",\"unit\":\"%s\",\"better\":\"lower\",", (first ? "" : ",\n"), i, unit
      first = 0
      if (job == 4 && i == 5) { printf "\"samples\":[],\"error\":\"out of memory\"}"; continue }
      printf "\"samples\":["
      for (c = 0; c < s; c++) printf "%s%.6g", (c ? "," : ""), m * (1 + noise * (rand() - 0.5))
      printf "]}"
    }
    if (job <= 10 && shard < 2) {
      printf ",\n{\"suite\":\"gotest\",\"name\":\"BenchmarkRetired\",\"unit\":\"ns\",\"better\":\"lower\",\"samples\":["
      for (c = 0; c < s; c++) printf "%s%.6g", (c ? "," : ""), 500 * (1 + 0.02 * (rand() - 0.5))
      printf "]}"
    }
    print "]}"
  }' > "$4"
}

# record JOB...: generates and stores the runs of the jobs in every store.
record() {
  local files=()
  for j in "$@"; do
    if [ "$j" = 12 ] || [ "$j" = 15 ]; then
      gen "$j" 1 main "$work/h$j-1.json"; gen "$j" 2 main "$work/h$j-2.json"; files+=("$work/h$j-1.json" "$work/h$j-2.json")
    else
      gen "$j" 0 main "$work/h$j.json"; files+=("$work/h$j.json")
    fi
  done
  "$work/bin/after" record --store "$work/st" "${files[@]}" > /dev/null
  [ -n "$u" ] && "$work/bin/after" record --db "$db" "${files[@]}" > /dev/null
  rm -f "${files[@]}"
}

# check BIN STORE JOBS REP: one check; its JSON goes to out/, its peak RSS (KiB) to BIN.STORE.JOBS.
check() {
  local where=(--store "$work/st") rc=0
  [ "$2" = pg ] && where=(--db "$db")
  /usr/bin/time -f '%M %U %S' -o "$work/time.txt" "$work/bin/$1" check "${where[@]}" --format json "$work/cand.json" \
    > "$work/out/$1.$2.$3.json" 2> "$work/stderr.txt" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "failed ($rc): $1 check $2" >&2; cat "$work/stderr.txt" >&2; exit 1; fi
  tail -n 1 "$work/time.txt" | awk '{ print $1, $2 + $3 }' >> "$work/$1.$2.$3"
}

gen 99 0 feature "$work/cand.json"
in=$(stat -c %s "$work/cand.json")
differ=0
printf '%-6s %-5s %-7s %9s %9s %9s %7s %7s %8s %8s  %s\n' jobs store binary "cand MB" "min MB" "med MB" "÷ cand" "med ÷" "min cpu" "med cpu" verdicts
prev=0
for jobs in 3 10 20; do
  record $(seq $((prev + 1)) "$jobs"); prev=$jobs
  for st in "${stores[@]}"; do
    where=(--store "$work/st"); [ "$st" = pg ] && where=(--db "$db")
    for b in "${bins[@]}"; do : > "$work/$b.$st.$jobs"; done
    for _ in $(seq "$reps"); do for b in "${bins[@]}"; do check "$b" "$st" "$jobs"; done; done
    same=""
    if [ -n "${BEFORE:-}" ]; then
      # The Markdown report too: it carries the noise warnings, which the JSON leaves out.
      for b in before after; do
        "$work/bin/$b" check "${where[@]}" --format markdown "$work/cand.json" > "$work/out/$b.$st.$jobs.md" || true
      done
      if cmp -s "$work/out/before.$st.$jobs.json" "$work/out/after.$st.$jobs.json" &&
        cmp -s "$work/out/before.$st.$jobs.md" "$work/out/after.$st.$jobs.md"; then same=identical; else same=DIFFER; differ=1; fi
    fi
    for b in "${bins[@]}"; do
      cpu=$(sort -g -k2 "$work/$b.$st.$jobs" | awk '{ v[NR] = $2 } END { printf "%.2f %.2f", v[1], v[int((NR + 1) / 2)] }')
      sort -n "$work/$b.$st.$jobs" | awk -v j="$jobs" -v st="$st" -v b="$b" -v inb="$in" -v same="$same" -v cpu="$cpu" '
        { v[NR] = $1 } END { mn = v[1] * 1024; md = v[int((NR + 1) / 2)] * 1024; split(cpu, t, " ")
          printf "%-6s %-5s %-7s %9.1f %9.1f %9.1f %7.1f %7.1f %8s %8s  %s\n", j, st, b, inb / 1e6, mn / 1e6, md / 1e6, mn / inb, md / inb, t[1], t[2], same }'
    done
  done
done
if [ -n "$u" ]; then
  for jobs in 3 10 20; do for b in "${bins[@]}"; do
    cmp -s "$work/out/$b.store.$jobs.json" "$work/out/$b.pg.$jobs.json" || echo "note: $b: the stores' verdicts differ at $jobs jobs" >&2
  done; done
fi
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$work"/out/* "$KEEP"/; fi
exit "$differ"
