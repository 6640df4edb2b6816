#!/usr/bin/env bash
# render.sh MARKDOWN PNG: renders a Markdown file as GitHub renders a
# comment or a job summary (render.html: marked, github-markdown-css and
# Mermaid at the versions package.json pins, from the npm registry) in
# Debian's headless Chromium, from disk, 1040 px wide and as tall as the
# page, into PNG. pr-comment.sh and summary.sh use it.
#
# Needs npm, node and chromium ($PERFGATE_CHROMIUM, else chromium on PATH).
set -euo pipefail
md=$(realpath "$1")
png=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
npm install --no-audit --no-fund --loglevel=error >/dev/null
page=$(mktemp "$here/page.XXXXXX.html")
profile=$(mktemp -d)
trap 'rm -rf "$page" "$profile"' EXIT
# The page is render.html with the Markdown inlined (a JSON string, < escaped),
# so Chromium opens it from disk: fetch() of a file:// URL is refused.
node -e '
  const fs = require("fs");
  const md = JSON.stringify(fs.readFileSync(process.argv[1], "utf8")).replace(/</g, "\\u003c");
  const html = fs.readFileSync("render.html", "utf8").replace("<body>", "<body><script>window.MD = " + md + ";</script>");
  fs.writeFileSync(process.argv[2], html);' "$md" "$page"
chromium=("${PERFGATE_CHROMIUM:-chromium}" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir="$profile" --virtual-time-budget=15000)
# First the page's height once rendered (render.html sets data-height), then
# the screenshot at that height.
height=$("${chromium[@]}" --window-size=1040,2500 --dump-dom "file://$page" 2>/dev/null | sed -n 's/.*data-height="\([0-9]*\)".*/\1/p')
if [ -z "$height" ]; then
  echo "render.html did not render $1" >&2
  exit 1
fi
"${chromium[@]}" --window-size="1040,$height" --screenshot="$png" "file://$page" 2>/dev/null
echo "$height"
