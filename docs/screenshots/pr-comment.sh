#!/usr/bin/env bash
# Regenerates docs/img/pr-comment.png: the comment the demo prints
# (go run ./cmd/perfgate demo, kept as pr-comment.md), rendered as GitHub
# renders a comment (render.html: marked, github-markdown-css and Mermaid at
# the versions package.json pins, from the npm registry) in Debian's headless
# Chromium, from disk. cmd/perfgate's TestScreenshotIsTheDemo fails when
# pr-comment.md is not what the demo prints: run this script then.
#
# Needs Go, npm, chromium ($PERFGATE_CHROMIUM, else chromium on PATH) and a
# colour emoji font for the verdict marks (Debian: fonts-noto-color-emoji).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
code=0
go run ./cmd/perfgate demo >"$here/pr-comment.md" 2>/dev/null || code=$?
if [ "$code" != 1 ]; then # the demo's PR has a regression: exit 1 is the expected outcome
  echo "perfgate demo exited $code, want 1" >&2
  exit 1
fi
cd "$here"
npm install --no-audit --no-fund --loglevel=error >/dev/null
page=$(mktemp "$here/page.XXXXXX.html")
trap 'rm -f "$page"' EXIT
# The page is render.html with the Markdown inlined (a JSON string, < escaped),
# so Chromium opens it from disk: fetch() of a file:// URL is refused.
node -e '
  const fs = require("fs");
  const md = JSON.stringify(fs.readFileSync("pr-comment.md", "utf8")).replace(/</g, "\\u003c");
  const html = fs.readFileSync("render.html", "utf8").replace("<body>", "<body><script>window.MD = " + md + ";</script>");
  fs.writeFileSync(process.argv[1], html);' "$page"
chromium=("${PERFGATE_CHROMIUM:-chromium}" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir="$(mktemp -d)" --virtual-time-budget=15000)
# First the page's height once rendered (render.html sets data-height), then
# the screenshot at that height.
height=$("${chromium[@]}" --window-size=1040,2500 --dump-dom "file://$page" 2>/dev/null | sed -n 's/.*data-height="\([0-9]*\)".*/\1/p')
if [ -z "$height" ]; then
  echo "render.html did not render pr-comment.md" >&2
  exit 1
fi
"${chromium[@]}" --window-size="1040,$height" --screenshot="$here/../img/pr-comment.png" "file://$page" 2>/dev/null
echo "wrote docs/img/pr-comment.png from docs/screenshots/pr-comment.md (the demo's comment)"
