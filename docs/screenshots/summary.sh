#!/usr/bin/env bash
# Regenerates docs/img/summary.png and docs/img/summary-charts/: what
# `perfgate summary` prints for a default PR run, as GitHub renders it (the
# job summary), and the charts `perfgate summary --charts` draws. The run is
# one round of the default PR run on a lent H200
# (docs/results/spread/jobs-draws/job-1/round-1.json); the picture shows
# its memory, microbatch, mixedops and decode suites (the elementwise and
# attention tables are long: their charts stand for them), the whole run
# drives the charts. Rendered like pr-comment.sh: render.html (marked,
# github-markdown-css, Mermaid at package.json's versions) in Debian's
# headless Chromium, from disk.
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
cd "$here"
npm install --no-audit --no-fund --loglevel=error >/dev/null
page=$(mktemp "$here/page.XXXXXX.html")
trap 'rm -rf "$tmp" "$page"' EXIT
node -e '
  const fs = require("fs");
  const md = JSON.stringify(fs.readFileSync("summary.md", "utf8")).replace(/</g, "\\u003c");
  const html = fs.readFileSync("render.html", "utf8").replace("<body>", "<body><script>window.MD = " + md + ";</script>");
  fs.writeFileSync(process.argv[1], html);' "$page"
chromium=("${PERFGATE_CHROMIUM:-chromium}" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir="$(mktemp -d)" --virtual-time-budget=15000)
height=$("${chromium[@]}" --window-size=1040,2500 --dump-dom "file://$page" 2>/dev/null | sed -n 's/.*data-height="\([0-9]*\)".*/\1/p')
if [ -z "$height" ]; then
  echo "render.html did not render summary.md" >&2
  exit 1
fi
"${chromium[@]}" --window-size="1040,$height" --screenshot="$here/../img/summary.png" "file://$page" 2>/dev/null
echo "wrote docs/img/summary.png ($height px) and docs/img/summary-charts/ from $run"
