#!/usr/bin/env bash
# device-pace-default.sh: the default `perfgate run` (no --suite: the default
# built-in suites, size ci, 3 rounds) with --pace auto (the default) and
# --pace off, one after the other in one device call, after the kernels'
# GPU tests: what pacing costs in wall time and what it changes.
#   source .gpu/gpu-env.sh && bash docs/results/device-pace-default.sh
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
mkdir -p "$OUT"
pg=/tmp/pg
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv | tee "$OUT/summary.txt"
if [ -z "${SKIP_TEST:-}" ]; then # SKIP_TEST=1: a second call on the same tree
  PERFGATE_REQUIRE_GPU=1 timeout 150 go test -tags cuda -count=1 ./kernels/... > "$OUT/go-test.log" 2>&1
  echo "go test -tags cuda ./kernels/... exit $?" | tee -a "$OUT/summary.txt"
  tail -3 "$OUT/go-test.log" >> "$OUT/summary.txt"
fi
meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)" --branch main --event push)
# The first run fills the PTX cache (NVRTC); it is not timed. Then off and
# auto alternate, twice each.
$pg run --suite memory --out /tmp/warm.json > /dev/null 2>&1
$pg run "${meta[@]}" --out /tmp/warm.json > /dev/null 2>&1
for pace in off auto off auto; do
  s=$(date +%s.%N)
  $pg run --pace $pace "${meta[@]}" --out "$OUT/default-pace-$pace.json" > "$OUT/default-pace-$pace.log" 2>&1
  rc=$?
  echo "default run --pace $pace: exit $rc in $(python3 -c "print(round($(date +%s.%N) - $s, 1))") s" | tee -a "$OUT/summary.txt"
done
# Where pacing acts: the gemm suite at size small (its 4096 shapes reach the
# power cap), off and auto, timed.
for pace in off auto; do
  s=$(date +%s.%N)
  $pg run --suite gemm --size small --pace $pace "${meta[@]}" --out "$OUT/gemm-pace-$pace.json" > "$OUT/gemm-pace-$pace.log" 2>&1
  rc=$?
  echo "gemm --size small --pace $pace: exit $rc in $(python3 -c "print(round($(date +%s.%N) - $s, 1))") s" | tee -a "$OUT/summary.txt"
done
python3 - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys, statistics
out = sys.argv[1]
def cv(b):
    s = b["samples"]; return statistics.pstdev(s) / statistics.mean(s) * 100
for kind in ("default", "gemm"):
    runs = {p: json.load(open(f"{out}/{kind}-pace-{p}.json")) for p in ("auto", "off")}
    med = {p: {b["name"]: statistics.median(b["samples"]) for b in r["benchmarks"] if b.get("samples")} for p, r in runs.items()}
    paced = [b for b in runs["auto"]["benchmarks"] if (b.get("metrics") or {}).get("pace_ratio", 0) > 0]
    print(f"== {kind}: benchmarks {len(med['auto'])}; paced under auto: {len(paced)}")
    for b in paced[:20]:
        m = b["metrics"]; n = b["name"]
        print(f"  {n}: pace_ratio {m.get('pace_ratio')} retaken {m.get('throttled_retaken', 0)} kept {m.get('throttled_kept', 0)}; median auto/off {med['auto'][n] / med['off'][n]:.3f}; CV auto {cv(b):.2f}%")
    for p, r in runs.items():
        big = [cv(b) for b in r["benchmarks"] if b.get("samples") and statistics.median(b["samples"]) >= 100 and b.get("unit") == "us"]
        print(f"  --pace {p}: benchmarks >= 100 us: {len(big)}, median CV {statistics.median(big):.3f}%" if big else f"  --pace {p}: none >= 100 us")
PY
