#!/usr/bin/env bash
# The build step of action.yml: builds perfgate from the action's source into
# $RUNNER_TEMP/perfgate-action/perfgate, with CUDA (-tags cuda) when asked or
# found, and writes bin= and libdir= to $GITHUB_OUTPUT.
#
# Environment: PERFGATE_CUDA (auto|true|false), PERFGATE_CUDA_INCLUDE (folders,
# comma- or newline-separated), PERFGATE_ACTION_REF and PERFGATE_ACTION_REPOSITORY
# (the ref and repository the action is used at, for a release binary),
# GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_SERVER_URL.
#
# gorgonia.org/cu v0.9.6 compiles only against a CUDA 12.x cuda.h; nvrtc.h may
# come from any toolkit (a CUDA-13 host: the 12.x cuda.h from one folder,
# nvrtc.h from /usr/local/cuda/include). nvrtc.h is put on the include path
# alone, through a private folder, when its folder is not cuda.h's: a CUDA 13
# include folder on the path would shadow other headers (nvml.h breaks
# go-nvml's build).
set -euo pipefail

case "${PERFGATE_CUDA:-auto}" in
  auto|true|false) ;;
  *) echo "::error title=perfgate::cuda: '$PERFGATE_CUDA' is not auto, true or false"; exit 2 ;;
esac

# The folders cuda-include names, then the usual places.
given=()
while IFS= read -r d; do
  d="${d#"${d%%[![:space:]]*}"}"
  d="${d%"${d##*[![:space:]]}"}"
  if [ -n "$d" ]; then
    given+=("$d")
  fi
done < <(printf '%s\n' "${PERFGATE_CUDA_INCLUDE:-}" | tr ',' '\n')
for d in "${given[@]}"; do
  if [ ! -d "$d" ]; then
    echo "::error title=perfgate::cuda-include: $d is not a folder"
    exit 2
  fi
  # go splits CGO_CFLAGS and CGO_LDFLAGS at white space, quotes or not.
  if [[ "$d" =~ [[:space:]] ]]; then
    echo "::error title=perfgate::cuda-include: $d has white space in its path, which cgo cannot pass to the compiler (go splits CGO_CFLAGS at spaces): link the folder from a path without spaces and name that"
    exit 2
  fi
done
readarray -t versioned < <(printf '%s\n' /usr/local/cuda-12.*/include | sort -rV)
usual=("${CUDA_HOME:+$CUDA_HOME/include}" "${CUDA_PATH:+$CUDA_PATH/include}" /usr/local/cuda-12/include
       "${versioned[@]}" /usr/local/cuda/include /usr/include)

# find_cuda12 prints the first folder holding a CUDA 12.x cuda.h.
find_cuda12() {
  local d v
  for d in "${given[@]}" "${usual[@]}"; do
    if [ -z "$d" ] || [ ! -f "$d/cuda.h" ]; then
      continue
    fi
    v=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$d/cuda.h" | head -n1)
    if [ -n "$v" ] && [ "$v" -ge 12000 ] && [ "$v" -lt 13000 ]; then
      echo "$d"
      return 0
    fi
    echo "perfgate: skipping $d/cuda.h (CUDA_VERSION ${v:-unknown}, need 12.x)" >&2
  done
  return 1
}

# find_nvrtc prints the first folder holding nvrtc.h: cuda-include's folders,
# then cuda.h's, then the usual places.
find_nvrtc() {
  local d
  for d in "${given[@]}" "$1" "${usual[@]}"; do
    if [ -n "$d" ] && [ -f "$d/nvrtc.h" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

# libdirs prints the library folders of the toolkit roots given (the parents
# of include folders), real libraries before stubs.
libdirs() {
  local r l
  for sub in lib64 lib targets/x86_64-linux/lib lib64/stubs lib/stubs; do
    for r in "$@"; do
      l="$r/$sub"
      if [ -n "$r" ] && [ -d "$l" ]; then
        echo "$l"
      fi
    done
  done
}

# find_libs prints the folders to link from: beside nvrtc.h and cuda.h, and
# when no libnvrtc.so is there, the usual toolkit roots too.
find_libs() {
  local roots=("$(dirname "$1")" "$(dirname "$2")") d
  for d in $(libdirs "${roots[@]}"); do
    if [ -e "$d/libnvrtc.so" ]; then
      libdirs "${roots[@]}" | awk '!seen[$0]++'
      return 0
    fi
  done
  libdirs "${roots[@]}" "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda | awk '!seen[$0]++'
}

# try_release uses a prebuilt binary of the release the action is used at
# (uses: perfgate/perfgate@vX or @vX.Y.Z, docs/action.md "Versions"): the
# default binary for cuda: false or on a host without nvidia-smi, the CUDA 12
# one for cuda: auto on a GPU host if it loads there. It checks the binary
# against the digest in action/SHA256SUMS of the action's own source (the
# release workflow commits it to the tag), never against a file of the
# release: a release's assets can be replaced, sums and all, without moving
# the tag, and the binary runs on the GPU runner with the token and the
# database password. Then it checks that it runs and reports that version.
# cuda: true, any other ref (a branch, a SHA, uses: ./), PERFGATE_BUILD_FROM_SOURCE,
# a source without the digest or any failure builds from source.
try_release() {
  local ref="${PERFGATE_ACTION_REF:-}" repo="${PERFGATE_ACTION_REPOSITORY:-}" asset base want got v why=""
  local sums="${GITHUB_ACTION_PATH:-.}/action/SHA256SUMS"
  if [ -n "${PERFGATE_BUILD_FROM_SOURCE:-}" ]; then
    why="PERFGATE_BUILD_FROM_SOURCE is set"
  elif [ "${PERFGATE_CUDA:-auto}" = true ]; then
    why="cuda: true"
  elif [ -z "$repo" ] || ! [[ "$ref" =~ ^v[0-9]+(\.[0-9]+\.[0-9]+)?$ ]]; then
    why="the action's ref '${ref:-none}' is not a release tag"
  elif [ "$(uname -sm)" != "Linux x86_64" ]; then
    why="releases have no binary for $(uname -sm)"
  elif ! command -v curl >/dev/null; then
    why="no curl to download a release binary"
  fi
  if [ -n "$why" ]; then
    echo "perfgate: $why; building from source"
    return 1
  fi
  asset=perfgate-linux-amd64
  if [ "${PERFGATE_CUDA:-auto}" = auto ] && command -v nvidia-smi >/dev/null 2>&1; then
    asset=perfgate-linux-amd64-cuda12
  fi
  want=$(awk -v a="$asset" '$2 == a || $2 == "*" a {print $1}' "$sums" 2>/dev/null | head -n1)
  if ! [[ "$want" =~ ^[0-9a-f]{64}$ ]]; then
    echo "perfgate: the action's source at $ref has no digest of $asset (action/SHA256SUMS); building from source"
    return 1
  fi
  base="${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download/$ref"
  if ! curl -fsSL --connect-timeout 5 --max-time 300 -o "$out/$asset" "$base/$asset"; then
    echo "perfgate: no release binary $asset for $ref; building from source"
    return 1
  fi
  got=$(sha256sum "$out/$asset" | cut -d' ' -f1)
  if [ "$want" != "$got" ]; then
    rm -f "$out/$asset"
    echo "::warning title=perfgate::the release binary $asset of $ref does not match the digest in the action's source (action/SHA256SUMS at $ref); building from source"
    return 1
  fi
  chmod +x "$out/$asset"
  if ! v=$("$out/$asset" version 2>/dev/null); then
    echo "perfgate: the release binary $asset does not run here (a missing CUDA 12 library?); building from source"
    return 1
  fi
  v=$(echo "$v" | awk '{print $2}')
  if [ "$v" != "$ref" ] && [[ "$v" != "$ref".* ]]; then
    echo "perfgate: the release binary $asset is $v, not $ref; building from source"
    return 1
  fi
  mv "$out/$asset" "$out/perfgate"
  echo "perfgate: using the release binary $asset of $ref ($v)"
}

out="$RUNNER_TEMP/perfgate-action"
mkdir -p "$out"
if try_release; then
  echo "bin=$out/perfgate" >> "$GITHUB_OUTPUT"
  echo "libdir=" >> "$GITHUB_OUTPUT"
  exit 0
fi
tags=()
libdir=""
if [ "${PERFGATE_CUDA:-auto}" != false ]; then
  why=""
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    why="no nvidia-smi"
  elif ! inc=$(find_cuda12); then
    why="no CUDA 12.x cuda.h (set cuda-include)"
  elif ! nvrtc=$(find_nvrtc "$inc"); then
    why="no nvrtc.h next to $inc/cuda.h or in cuda-include"
  fi
  if [ -z "$why" ]; then
    cflags="-I$inc"
    if [ "$nvrtc" != "$inc" ]; then
      mkdir -p "$out/include"
      ln -sfn "$nvrtc/nvrtc.h" "$out/include/nvrtc.h"
      cflags="$cflags -I$out/include"
    fi
    readarray -t libs < <(find_libs "$nvrtc" "$inc")
    ldflags=""
    for l in "${libs[@]}"; do
      ldflags="$ldflags -L$l"
    done
    # The run step's LD_LIBRARY_PATH: the folders with real libraries, not stubs.
    libdir=$(printf '%s\n' "${libs[@]}" | grep -v '/stubs$' | paste -sd: -)
    tags=(-tags cuda)
    export CGO_ENABLED=1 CGO_CFLAGS="$cflags" CGO_LDFLAGS="${ldflags# }"
    echo "perfgate: building with CUDA: cuda.h from $inc, nvrtc.h from $nvrtc, libraries from ${libs[*]:-the system}"
  elif [ "$PERFGATE_CUDA" = true ]; then
    echo "::error title=perfgate::cuda: true, but $why"
    exit 1
  else
    echo "::notice title=perfgate::building without CUDA ($why); GPU suites will not run"
  fi
fi
bin="$out/perfgate"
(cd "$GITHUB_ACTION_PATH" && go build "${tags[@]}" -trimpath -o "$bin" ./cmd/perfgate)
echo "bin=$bin" >> "$GITHUB_OUTPUT"
echo "libdir=$libdir" >> "$GITHUB_OUTPUT"
