#!/usr/bin/env bash
# Regenerates docs/img/pr-comment.png: the comment the demo prints
# (go run ./cmd/perfgate demo, kept as pr-comment.md), rendered as GitHub
# renders a comment (render.sh). cmd/perfgate's TestScreenshotIsTheDemo fails when
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
bash "$here/render.sh" "$here/pr-comment.md" "$here/../img/pr-comment.png" >/dev/null
echo "wrote docs/img/pr-comment.png from docs/screenshots/pr-comment.md (the demo's comment)"
