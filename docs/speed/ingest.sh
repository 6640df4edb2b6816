#!/usr/bin/env bash
# Peak memory (max resident set, /usr/bin/time) and time of perfgate ingest --format json-samples
# --out FILE for json-samples files of about 25, 50 and 100 MB (issue 28: ≤ 3× the input, linear
# in time): BENCHMARKS benchmarks of 11,000 samples each, three decimals, in the self-describing
# form. For each size it prints the input in MB, peak RSS in MB and as a multiple of the input,
# and wall and CPU seconds (of the run of median RSS among REPS), and the load average before and after.
#
# Usage: docs/speed/ingest.sh [REPS] [BENCHMARKS...]   (defaults: 3, "250 500 1000")
# PERFGATE=path tests a prebuilt binary instead of building this checkout.
set -euo pipefail
reps=${1:-3}
shift || true
sizes=("${@:-250 500 1000}")
read -ra sizes <<< "${sizes[*]}"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
if [ -n "${PERFGATE:-}" ]; then cp "$PERFGATE" "$work/perfgate"; else (cd "$root" && go build -o "$work/perfgate" ./cmd/perfgate); fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%10s %10s %10s %8s %8s %8s\n' benchmarks input_MB rss_MB ratio wall_s cpu_s
for n in "${sizes[@]}"; do
  awk -v n="$n" 'BEGIN {
    srand(1)
    printf "{\"unit\": \"ms\", \"better\": \"lower\", \"benchmarks\": {\n"
    for (i = 0; i < n; i++) {
      printf "%s\"bench/n=%05d\": [", (i ? ",\n" : ""), i
      for (c = 0; c < 11000; c++) printf "%s%.3f", (c ? "," : ""), (1000 + i) * (1 + 0.02 * (rand() - 0.5))
      printf "]"
    }
    print "}}"
  }' > "$work/in.json"
  size=$(stat -c %s "$work/in.json")
  : > "$work/runs.txt"
  for _ in $(seq "$reps"); do
    /usr/bin/time -f '%M %e %U %S' -o "$work/t.txt" "$work/perfgate" ingest --format json-samples \
      --commit 0000000000000000000000000000000000000000 --out "$work/out.json" "$work/in.json" 2> /dev/null
    cat "$work/t.txt" >> "$work/runs.txt"
  done
  sort -n "$work/runs.txt" | awk -v size="$size" -v n="$n" '{ rss[NR] = $1; wall[NR] = $2; cpu[NR] = $3 + $4 }
    END { m = int((NR + 1) / 2); mb = size / 1e6
          printf "%10d %10.1f %10.1f %8.2f %8.2f %8.2f\n", n, mb, rss[m] * 1024 / 1e6, rss[m] * 1024 / size, wall[m], cpu[m] }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
