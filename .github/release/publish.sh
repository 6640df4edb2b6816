#!/usr/bin/env bash
# Publishes dist/* as the release $VERSION (vX.Y.Z); when $VERSION is the
# highest vX tag, moves the tag vX to its commit and makes the release vX
# hold the same files (docs/action.md, "Versions and releases").
#
# Through the REST API at GITHUB_API_URL with curl and jq (both on GitHub's
# runners), so it runs the same against GHES and the act test's fake. A
# release is created as a draft, given its assets, then published: a user
# never sees it half-uploaded. Run again for the same tag, it replaces the
# assets of the same names and updates the release.
#
# Env: VERSION, GH_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL; the git remote
# origin (actions/checkout's) to push vX to.
set -euo pipefail
: "${VERSION:?}" "${GH_TOKEN:?}" "${GITHUB_REPOSITORY:?}"
api="${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY"
resp=$(mktemp)
trap 'rm -f "$resp"' EXIT

# call METHOD URL [CURL ARGS...] prints the HTTP status; the body is in $resp.
call() {
  curl -sS -o "$resp" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $GH_TOKEN" \
    -H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28" "${@:3}" "$2"
}

# must is call, failing the step unless the status is 2xx.
must() {
  local code
  code=$(call "$@")
  if [[ $code != 2* ]]; then
    # The message, on one line: it must not start a workflow command.
    echo "::error title=release::$1 ${2%%\?*}: HTTP $code: $(jq -r '.message? // empty' "$resp" 2>/dev/null | tr -d '\r\n' | head -c 300)"
    exit 1
  fi
}

# publish TAG FIELDS makes the release of TAG hold dist/*, with FIELDS (a
# JSON object: name, body, make_latest, generate_release_notes).
publish() {
  local tag=$1 fields=$2 code id upload f name old
  code=$(call GET "$api/releases/tags/$tag")
  case $code in
    200) ;;
    404) must POST "$api/releases" --data "$(jq -c --arg t "$tag" '. + {tag_name: $t, draft: true}' <<< "$fields")" ;;
    *) echo "::error title=release::GET release $tag: HTTP $code"; exit 1 ;;
  esac
  id=$(jq -r .id "$resp")
  upload=$(jq -r .upload_url "$resp")
  upload=${upload%%\{*}
  local assets
  assets=$(jq -c '[.assets[] | {name, id}]' "$resp")
  for f in dist/*; do
    name=$(basename "$f")
    old=$(jq -r --arg n "$name" '.[] | select(.name == $n) | .id' <<< "$assets")
    if [ -n "$old" ]; then
      must DELETE "$api/releases/assets/$old"
    fi
    must POST "$upload?name=$name" -H "Content-Type: application/octet-stream" --data-binary "@$f"
  done
  must PATCH "$api/releases/$id" --data "$(jq -c 'del(.generate_release_notes) + {draft: false}' <<< "$fields")"
  echo "release $tag: $(jq -r .html_url "$resp") with $(cd dist && echo *)"
}

highest() { git tag -l "$1" | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n1; }
major="${VERSION%%.*}"
commit=$(git rev-parse "refs/tags/$VERSION^{commit}")
latest=false
if [ "$(highest 'v*')" = "$VERSION" ]; then
  latest=true
fi
publish "$VERSION" "$(jq -n --arg n "$VERSION" --arg l "$latest" '{name: $n, generate_release_notes: true, make_latest: $l}')"

if top=$(highest "$major.*") && [ "$top" != "$VERSION" ]; then
  echo "::notice title=release::$VERSION is not the highest $major tag ($top): $major stays where it is"
  exit 0
fi
git tag -f "$major" "$commit"
git push -f origin "refs/tags/$major"
publish "$major" "$(jq -n --arg m "$major" --arg v "$VERSION" \
  '{name: "\($m) (= \($v))", body: "The latest \($m).x release: \($v).", make_latest: "false"}')"
