#!/usr/bin/env bash
# Commits dist/SHA256SUMS, the digests of the binaries this run built, to
# action/SHA256SUMS on top of the tagged commit, and moves the tag $VERSION
# there (docs/action.md, "Versions and releases"). action/build.sh trusts a
# release binary only when its digest is in action/SHA256SUMS of the action's
# own source at the ref it is used at: a release's assets, SHA256SUMS
# included, can be replaced without moving a tag; the tag's tree cannot. The
# binaries were built from the parent commit; the file is all that differs.
#
# Env: VERSION; the git remote origin (actions/checkout's) to push the tag to.
set -euo pipefail
: "${VERSION:?}"
if ! grep -Eq '^[0-9a-f]{64}  perfgate-linux-amd64$' dist/SHA256SUMS; then
  echo "::error title=release::dist/SHA256SUMS has no digest of perfgate-linux-amd64"
  exit 1
fi
mkdir -p action
cp dist/SHA256SUMS action/SHA256SUMS
git add action/SHA256SUMS
git -c user.name="perfgate release" -c user.email="perfgate-release@users.noreply.github.com" \
  commit -q -m "release $VERSION: the digests of its binaries (action/SHA256SUMS)"
git -c user.name="perfgate release" -c user.email="perfgate-release@users.noreply.github.com" \
  tag -f -a "$VERSION" -m "$VERSION" HEAD
git push -f origin "refs/tags/$VERSION"
echo "$VERSION is now $(git rev-parse HEAD), with action/SHA256SUMS:"
cat action/SHA256SUMS
