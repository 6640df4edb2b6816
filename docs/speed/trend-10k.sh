#!/usr/bin/env bash
# Whole-process timing of `perfgate trend` of one benchmark over 10,000 runs (docs/speed.md):
# the embedded store (goal ≤ 200 ms) and, when PERFGATE_TEST_DATABASE_URL names a Postgres
# server, Postgres (goal ≤ 50 ms). Each run's median moves by up to ±1.5% (NOISE=0.01, the
# default), a quiet history that changepoint.Detect answers without its search (every value
# within the 5% step threshold of every other); NOISE=0.03 (±4.5%) makes step detection do its
# full work on the latest 1,000 points (a flat history needs the most permutations). For each
# store it times,
# interleaved, REPS times each: the binary under test, the binary in $BEFORE when given
# (a build of an older commit), and benchstat comparing two files of 2,000 benchmarks × 10
# runs as a yardstick of the machine's load; it prints min/median wall seconds and each
# one's ratio to the yardstick.
#
# Postgres draws its history with random(): a new one each invocation unless SEED (0 to 1) is set.
# The embedded store's is the same each invocation: awk's srand(7), or srand(SEED × 10⁶) when SEED is
# set (SEED=0.03 is a flat history whose first permutation test is significant by chance).
#
# Usage: [NOISE=0.01] [SEED=0.5] [BEFORE=old-binary] docs/speed/trend-10k.sh [REPS]        (default 5)
# It creates and drops the database perfgate_speed_trend on that server.
set -euo pipefail
BENCHSTAT=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
reps=${1:-5}
runs=10000
noise=${NOISE:-0.01}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
GOBIN=$work/bin go install "$BENCHSTAT"
(cd "$root" && go build -o "$work/bin/perfgate" ./cmd/perfgate)
tools=(after "$work/bin/perfgate")
if [ -n "${BEFORE:-}" ]; then tools+=(before "$BEFORE"); fi

# The yardstick: benchstat on two files of 2,000 benchmarks, 10 runs each.
for seed in 1 2; do
  awk -v seed=$seed 'BEGIN { srand(seed); for (c = 0; c < 10; c++) for (i = 0; i < 2000; i++)
    printf "BenchmarkK/size=%05d-8 \t 1000000\t %10.1f ns/op\n", i, (1000 + i) * (1 + 0.02 * (rand() - 0.5)) }' > "$work/bs$seed.txt"
done

# The embedded store: run files written directly (one benchmark "memory/copy" with a noisy
# median, 19 others), then one `perfgate record` that indexes them.
mkdir -p "$work/store/runs"
awk -v n="$runs" -v dir="$work/store/runs" -v noise="$noise" -v seed="${SEED:-}" 'BEGIN {
  srand(seed == "" ? 7 : int(seed * 1000000))
  for (i = 0; i < n; i++) {
    f = sprintf("%s/h-%05d.json", dir, i)
    t = 1735689600 + 3600 * i
    printf "{\"schema\":\"perfgate.results/v1\",\"run\":{\"id\":\"h-%05d\",\"repo\":\"acme/kernels\",\"commit\":\"%040x\",\"branch\":\"main\",\"event\":\"push\",\"testbed\":\"bench\",\"started_at\":\"%s\"},\"benchmarks\":[", i, i + 1, strftime("%Y-%m-%dT%H:%M:%SZ", t, 1) > f
    m = 1000 * (1 + noise * (rand() + rand() + rand() - 1.5))
    printf "{\"suite\":\"memory\",\"name\":\"copy\",\"unit\":\"ns\",\"better\":\"lower\",\"samples\":[%.2f,%.2f,%.2f]}", m * 0.999, m, m * 1.001 > f
    for (j = 1; j < 20; j++) printf ",{\"suite\":\"memory\",\"name\":\"other/%d\",\"unit\":\"ns\",\"better\":\"lower\",\"samples\":[1,2,3]}", j > f
    print "]}" > f
    close(f)
  }
}'
cp "$work/store/runs/h-00000.json" "$work/first.json"
"$work/bin/perfgate" record --store "$work/store" "$work/first.json" > /dev/null 2>&1

args=(trend --benchmark copy --suite memory --since 0 --branch '')
targets=("store:--store $work/store")
if [ -n "${PERFGATE_TEST_DATABASE_URL:-}" ]; then
  u=$PERFGATE_TEST_DATABASE_URL
  db=${u%%\?*}; db=${db%/*}/perfgate_speed_trend; [ "$u" != "${u%%\?*}" ] && db="$db?${u#*\?}"
  psql "$u" -qc "drop database if exists perfgate_speed_trend" -c "create database perfgate_speed_trend"
  trap 'psql "$u" -qc "drop database if exists perfgate_speed_trend"; rm -rf "$work"' EXIT
  "$work/bin/perfgate" migrate --db "$db" > /dev/null
  # The same history in SQL (the run files' medians).
  psql "$db" -q <<SQL
${SEED:+select setseed($SEED) \gset}
insert into testbeds (label, gpu, driver, cuda, nvrtc) values ('bench', '', '', '', '');
insert into benchmarks (suite, name, unit, better, params)
  select 'memory', case when j = 0 then 'copy' else 'other/' || j end, 'ns', 'lower', '{}' from generate_series(0, 19) j;
insert into runs (id, content_sha256, repo, commit, branch, event, testbed_id, started_at, env, status)
  select format('h-%s', lpad(i::text, 5, '0')), decode(md5(i::text), 'hex'), 'acme/kernels', md5(i::text) || '01234567',
         'main', 'push', 1, timestamptz '2025-01-01 00:00Z' + i * interval '1 hour', '{}', 'ok'
  from generate_series(0, $runs - 1) i;
insert into run_benchmarks (run_pk, benchmark_id, ord, n, median, cv)
  select r.pk, b.id, b.id - 1, 3, case when b.name = 'copy' then 1000 * (1 + $noise * (random() + random() + random() - 1.5)) else 2 end, 0.001
  from runs r cross join benchmarks b;
vacuum analyze;
SQL
  targets+=("postgres:--db $db")
fi

# Each timing file holds one line per run: wall seconds, then the process's CPU seconds (user + system).
t() { /usr/bin/time -f '%e %U %S' -a -o "$1.raw" "${@:2}" > /dev/null 2>&1 || { echo "failed: ${*:2}" >&2; exit 1; }
      tail -n 1 "$1.raw" | awk '{ print $1, $2 + $3 }' >> "$1"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; trend of one benchmark over $runs runs, noise $noise"
printf "%-9s %-7s %8s %9s %12s %14s %14s\n" store binary "min s" "median s" "/ benchstat" "(median ratio)" "CPU min/med s"
for target in "${targets[@]}"; do
  name=${target%%:*}; read -r -a flags <<< "${target#*:}"
  : > "$work/ys"; : > "$work/ys.raw"
  for k in $(seq 0 2 $((${#tools[@]} - 1))); do : > "$work/t.${tools[k]}"; : > "$work/t.${tools[k]}.raw"; done
  for _ in $(seq "$reps"); do
    for k in $(seq 0 2 $((${#tools[@]} - 1))); do t "$work/t.${tools[k]}" "${tools[k+1]}" "${args[@]}" "${flags[@]}"; done
    t "$work/ys" "$work/bin/benchstat" "$work/bs1.txt" "$work/bs2.txt"
  done
  read -r ymin ymed < <(sort -g "$work/ys" | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)] }')
  for k in $(seq 0 2 $((${#tools[@]} - 1))); do
    read -r cmin cmed < <(awk '{ print $2 }' "$work/t.${tools[k]}" | sort -g | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)] }')
    sort -g "$work/t.${tools[k]}" | awk -v s="$name" -v b="${tools[k]}" -v ymin="$ymin" -v ymed="$ymed" -v c="$cmin/$cmed" '{ v[NR] = $1 }
      END { printf "%-9s %-7s %8.3f %9.3f %12.2f %14.2f %14s\n", s, b, v[1], v[int((NR + 1) / 2)], v[1] / ymin, v[int((NR + 1) / 2)] / ymed, c }'
  done
  printf "%-9s %-7s %8.3f %9.3f\n" "$name" benchstat "$ymin" "$ymed"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
