#!/usr/bin/env bash
# Regenerates docs/img/summary.png and docs/img/summary-charts/: what
# `perfgate summary` prints for a default PR run, as GitHub renders it (the
# job summary), and the charts `perfgate summary --charts` draws. The run is
# one round of the default PR run on a lent H200
# (docs/results/spread/jobs-draws/job-1/round-1.json); the picture shows
# its memory, microbatch, mixedops and decode suites (the elementwise and
# attention tables are long: their charts stand for them), the whole run
# drives the charts. Rendered as GitHub renders it (render.sh).
#
# Needs Go, npm, python3, chromium ($PERFGATE_CHROMIUM, else chromium on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
run=docs/results/spread/jobs-draws/job-1/round-1.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$run" "$tmp/part.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"] = [b for b in d["benchmarks"] if b["suite"] in ("memory", "microbatch", "mixedops", "decode")]
json.dump(d, open(sys.argv[2], "w"))
PY
go run ./cmd/perfgate summary --out "$here/summary.md" "$tmp/part.json"
rm -rf docs/img/summary-charts
go run ./cmd/perfgate summary --charts docs/img/summary-charts --out "$tmp/all.md" "$run"
height=$(bash "$here/render.sh" "$here/summary.md" "$here/../img/summary.png")
echo "wrote docs/img/summary.png ($height px) and docs/img/summary-charts/ from $run"
