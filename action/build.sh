#!/usr/bin/env bash
# The build step of action.yml: builds perfgate from the action's source into
# $RUNNER_TEMP/perfgate-action/perfgate, with CUDA (-tags cuda) when asked or
# found, and writes bin= and libdir= to $GITHUB_OUTPUT.
#
# Environment: PERFGATE_CUDA (auto|true|false), PERFGATE_CUDA_INCLUDE (folders,
# comma- or newline-separated), PERFGATE_ACTION_REF and PERFGATE_ACTION_REPOSITORY
# (the ref and repository the action is used at, for a release binary),
# PERFGATE_ACTION_CONFIG and PERFGATE_ACTION_RESULTS_FILE (the config and
# results-file inputs: whether the job runs GPU suites), GITHUB_ACTION_PATH,
# GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_SERVER_URL.
#
# The CUDA build needs only a cuda.h of CUDA 11.8 to 13.x (perfgate's copy of
# gorgonia.org/cu, third_party/gorgonia-cu, compiles against each) and
# libcuda to link; NVRTC and cuBLAS are loaded at run time, whichever
# version the host has. cuda.h is put on the include path alone, through a
# private folder: a whole CUDA include folder on CGO_CFLAGS would shadow
# other headers (CUDA 13's nvml.h breaks go-nvml's build).
#
# On a GPU host (nvidia-smi) whose job runs GPU suites (built-in or kernel
# suites; the default suites when there is no config), a CUDA build that
# cannot be made or would not load fails the step with exit 3 and says what
# is missing: a binary that cannot measure must not go on to judge a PR.
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
readarray -t versioned < <(printf '%s\n' /usr/local/cuda-1[123].*/include | sort -rV)
nvcc_inc=""
if command -v nvcc >/dev/null 2>&1; then
  nvcc_inc="$(dirname "$(command -v nvcc)")/../include"
fi
# Triton (PyTorch) bundles a cuda.h; the last resort.
readarray -t triton < <(printf '%s\n' /usr/local/lib/python3*/dist-packages/triton/backends/nvidia/include \
  /usr/lib/python3/dist-packages/triton/backends/nvidia/include \
  "${HOME:-/nonexistent}"/.local/lib/python3*/site-packages/triton/backends/nvidia/include)
usual=("${CUDA_HOME:+$CUDA_HOME/include}" "${CUDA_PATH:+$CUDA_PATH/include}" /usr/local/cuda/include
       "${versioned[@]}" "$nvcc_inc" /usr/include "${triton[@]}")

# find_cuda_h prints the first folder holding a cuda.h of CUDA 11.8 to 13.x.
find_cuda_h() {
  local d v
  for d in "${given[@]}" "${usual[@]}"; do
    if [ -z "$d" ] || [ ! -f "$d/cuda.h" ]; then
      continue
    fi
    v=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$d/cuda.h" | head -n1)
    if [ -n "$v" ] && [ "$v" -ge 11080 ] && [ "$v" -lt 14000 ]; then
      echo "$d $v"
      return 0
    fi
    echo "perfgate: skipping $d/cuda.h (CUDA_VERSION ${v:-unknown}, need 11.8 to 13.x)" >&2
  done
  return 1
}

# libdirs prints the library folders of the toolkit roots given (the parents
# of include folders), real libraries before stubs.
libdirs() {
  local r l sub
  for sub in lib64 lib targets/x86_64-linux/lib targets/sbsa-linux/lib lib64/stubs lib/stubs \
      targets/x86_64-linux/lib/stubs targets/sbsa-linux/lib/stubs; do
    for r in "$@"; do
      l="$r/$sub"
      if [ -n "$r" ] && [ -d "$l" ]; then
        echo "$l"
      fi
    done
  done
}

# The system's library folders and its default toolkit root
# (PERFGATE_BUILD_SYSLIBS and PERFGATE_BUILD_TOOLKIT replace them in tests,
# so that a host's own CUDA does not stand in for the one a test lays out).
syslibs="${PERFGATE_BUILD_SYSLIBS-/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib}"
toolkit="${PERFGATE_BUILD_TOOLKIT-/usr/local/cuda}"

# find_libcuda prints a folder to link -lcuda from: a libcuda.so (the
# driver's, or the toolkit's stub) in the toolkit roots or the system's
# library folders; else a private folder linking libcuda.so to the driver's
# libcuda.so.1 (which a driver without its -dev package has alone).
find_libcuda() {
  local d so1=""
  for d in $(libdirs "$@") $syslibs; do
    if [ -e "$d/libcuda.so" ]; then
      echo "$d"
      return 0
    fi
    if [ -z "$so1" ] && [ -e "$d/libcuda.so.1" ]; then
      so1="$d/libcuda.so.1"
    fi
  done
  if [ -z "$so1" ] && command -v ldconfig >/dev/null 2>&1; then
    so1=$(ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" {print $NF; exit}')
  fi
  if [ -n "$so1" ]; then
    mkdir -p "$out/lib"
    ln -sfn "$so1" "$out/lib/libcuda.so"
    echo "$out/lib"
    return 0
  fi
  return 1
}

# find_nvrtc prints the first libnvrtc.so.{13,12,11.2} the binary can load
# at run time (kernels/libload.go searches the same places and more).
find_nvrtc() {
  local d n
  for n in libnvrtc.so.13 libnvrtc.so.12 libnvrtc.so.11.2; do
    for d in $(libdirs "$@" "${CUDA_HOME:-}" "${CUDA_PATH:-}" "$toolkit") $syslibs \
        /usr/local/lib/python3*/dist-packages/nvidia/cu13/lib /usr/local/lib/python3*/dist-packages/nvidia/cuda_nvrtc/lib; do
      if [ -e "$d/$n" ]; then
        echo "$d/$n"
        return 0
      fi
    done
    if command -v ldconfig >/dev/null 2>&1 && ldconfig -p 2>/dev/null | awk -v n="$n" '$1 == n {f=1} END {exit !f}'; then
      echo "$n"
      return 0
    fi
  done
  return 1
}

# gpu_suites says whether the job runs GPU suites: not with results-file;
# yes with no config (the default suites are built-in GPU suites) or a config
# declaring a kernel or builtin suite. It errs towards yes.
gpu_suites() {
  local cfg
  if [ -n "${PERFGATE_ACTION_RESULTS_FILE:-}" ]; then
    return 1
  fi
  cfg="${PERFGATE_ACTION_CONFIG:-.perfgate.yml}"
  case "$cfg" in
    /*) ;;
    *) cfg="${GITHUB_WORKSPACE:-.}/$cfg" ;;
  esac
  if [ ! -f "$cfg" ]; then
    return 0
  fi
  grep -Eq '^[[:space:]]*(-[[:space:]]+)?(kernel|builtin):' "$cfg"
}

# try_release uses a prebuilt binary of the release the action is used at
# (uses: perfgate/perfgate@vX or @vX.Y.Z, docs/action.md "Versions"):
# perfgate-linux-ARCH, ARCH amd64 or arm64 from uname -m (x86_64, aarch64),
# for cuda: false or on a host without nvidia-smi; perfgate-linux-ARCH-cuda
# (one binary for CUDA 12 and 13 hosts: it links only the driver's
# libcuda.so.1 and loads NVRTC at run time) for cuda: auto on a GPU host, if
# it loads there. A tag from before that binary has only
# perfgate-linux-amd64-cuda12, which is taken instead on amd64. It checks the
# binary against the digest in action/SHA256SUMS of the action's own source
# (the release workflow commits it to the tag), never against a file of the
# release: a release's assets can be replaced, sums and all, without moving
# the tag, and the binary runs on the GPU runner with the token and the
# database password. Then it checks that it runs and reports that version.
# cuda: true, any other ref (a branch, a SHA, uses: ./), PERFGATE_BUILD_FROM_SOURCE,
# a source without the digest or any failure builds from source.
try_release() {
  local ref="${PERFGATE_ACTION_REF:-}" repo="${PERFGATE_ACTION_REPOSITORY:-}" asset arch base want got v why=""
  local sums="${GITHUB_ACTION_PATH:-.}/action/SHA256SUMS"
  if [ -n "${PERFGATE_BUILD_FROM_SOURCE:-}" ]; then
    why="PERFGATE_BUILD_FROM_SOURCE is set"
  elif [ "${PERFGATE_CUDA:-auto}" = true ]; then
    why="cuda: true"
  elif [ -z "$repo" ] || ! [[ "$ref" =~ ^v[0-9]+(\.[0-9]+\.[0-9]+)?$ ]]; then
    why="the action's ref '${ref:-none}' is not a release tag"
  elif ! arch=$(case "$(uname -s)/$(uname -m)" in
      Linux/x86_64 | Linux/amd64) echo amd64 ;;
      Linux/aarch64 | Linux/arm64) echo arm64 ;;
      *) exit 1 ;;
    esac); then
    why="releases have no binary for $(uname -s) $(uname -m)"
  elif ! command -v curl >/dev/null; then
    why="no curl to download a release binary"
  fi
  if [ -n "$why" ]; then
    echo "perfgate: $why; building from source"
    return 1
  fi
  asset=perfgate-linux-$arch
  if [ "${PERFGATE_CUDA:-auto}" = auto ] && command -v nvidia-smi >/dev/null 2>&1; then
    asset=$asset-cuda
  fi
  digest() { awk -v a="$1" '$2 == a || $2 == "*" a {print $1}' "$sums" 2>/dev/null | head -n1; }
  want=$(digest "$asset")
  if [ -z "$want" ] && [ "$asset" = perfgate-linux-amd64-cuda ] && [ -n "$(digest perfgate-linux-amd64-cuda12)" ]; then
    asset=perfgate-linux-amd64-cuda12 # a release from before the one CUDA binary
    want=$(digest "$asset")
  fi
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
    echo "perfgate: the release binary $asset does not run here (no libcuda.so.1, the NVIDIA driver's library?); building from source"
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
cuda_h=""
if [ "${PERFGATE_CUDA:-auto}" != false ]; then
  why="" fix=""
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    why="no nvidia-smi (no NVIDIA driver on this runner)"
    fix="run the job on a runner with an NVIDIA GPU and its driver"
  elif ! found=$(find_cuda_h); then
    why="no cuda.h of CUDA 11.8 to 13.x (looked in cuda-include, CUDA_HOME, CUDA_PATH, /usr/local/cuda*/include, nvcc's folder, /usr/include and Triton's copy)"
    fix="install the CUDA toolkit's headers (e.g. apt-get install cuda-cudart-dev-13-0 or cuda-toolkit-13-0) or set the action's cuda-include to the folder holding cuda.h"
  else
    inc=${found% *} ver=${found##* }
    roots=("$(dirname "$inc")")
    if ! libcuda=$(find_libcuda "${roots[@]}" "${CUDA_HOME:-}" "${CUDA_PATH:-}" "$toolkit"); then
      why="no libcuda.so or libcuda.so.1 (the NVIDIA driver's library) to link with"
      fix="install the driver's compute library (e.g. libnvidia-compute-580) or the toolkit's stubs"
    elif ! nvrtc=$(find_nvrtc "${roots[@]}"); then
      why="no NVRTC library (libnvrtc.so.13, .12 or .11.2), which compiles the kernels at run time"
      fix="install the toolkit's NVRTC (e.g. apt-get install cuda-nvrtc-13-0, or cuda-nvrtc-12-8 on a CUDA 12 driver)"
    fi
  fi
  if [ -z "$why" ]; then
    mkdir -p "$out/include"
    ln -sfn "$inc/cuda.h" "$out/include/cuda.h"
    # The run step's LD_LIBRARY_PATH: the toolkit's real libraries (NVRTC and
    # cuBLAS are loaded from there), not stubs.
    libdir=$(libdirs "${roots[@]}" | grep -v '/stubs$' | paste -sd: -)
    tags=(-tags cuda)
    cuda_h="$((ver / 1000)).$((ver % 1000 / 10))"
    export CGO_ENABLED=1 CGO_CFLAGS="-I$out/include" CGO_LDFLAGS="-L$libcuda"
    echo "perfgate: building with CUDA: cuda.h $cuda_h from $inc, libcuda from $libcuda; NVRTC at run time ($nvrtc here)"
  elif [ "${PERFGATE_CUDA:-auto}" = true ]; then
    echo "::error title=perfgate::cuda: true, but $why. Fix: $fix."
    exit 3
  elif [ "$why" != "${why#no nvidia-smi}" ] || ! gpu_suites; then
    echo "::notice title=perfgate::building without CUDA ($why); GPU suites will not run"
  else
    echo "::error title=perfgate::this GPU runner cannot build perfgate with CUDA: $why. The job's suites need the GPU (built-in or kernel suites; the default suites without a config). Fix: $fix. (cuda: false builds without CUDA for command suites only.)"
    exit 3
  fi
fi
bin="$out/perfgate"

# A build is cached per runner, keyed by what goes into it: the action's
# source (every Go, C, CUDA and module file; the action's checkout has no
# .git to name its commit), the Go version, the machine, the tags and cgo
# flags, and the cuda.h built against. A second job on the runner reuses it.
cache_root="${PERFGATE_BUILD_CACHE:-${RUNNER_TOOL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}}/perfgate-build}"
key=$(
  cd "$GITHUB_ACTION_PATH" &&
  {
    find . -path ./.git -prune -o -path ./vendor -prune -o -type f \( -name '*.go' -o -name '*.c' -o -name '*.h' -o -name '*.cu' \
      -o -name go.mod -o -name go.sum \) -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
    go version
    uname -m
    echo "${tags[*]}|${libcuda:-}" # the private include folder holds cuda.h alone: hashed below
    if [ -n "$cuda_h" ]; then sha256sum "$inc/cuda.h"; fi
  } | sha256sum | cut -c1-32
)
cached="$cache_root/$key/perfgate"
if [ -x "$cached" ]; then
  cp "$cached" "$bin"
  echo "perfgate: reusing the build cached at $cached (same source, Go, cuda.h and flags)"
else
  if ! (cd "$GITHUB_ACTION_PATH" && go build "${tags[@]}" -trimpath -o "$bin" ./cmd/perfgate); then
    if [ -n "$cuda_h" ]; then
      echo "::error title=perfgate::the CUDA build failed against cuda.h $cuda_h from $inc (the compiler's messages are above); set cuda-include to another CUDA 11.8 to 13.x include folder, or report it with this log"
    fi
    exit 3
  fi
  # Written under a temporary name and renamed: a job running beside this
  # one never sees half a binary. A cache that cannot be written costs only
  # the next job a build.
  if mkdir -p "$cache_root/$key" 2>/dev/null && cp "$bin" "$cached.tmp.$$" 2>/dev/null; then
    mv -f "$cached.tmp.$$" "$cached"
    echo "perfgate: cached the build at $cached"
  fi
fi
echo "bin=$bin" >> "$GITHUB_OUTPUT"
echo "libdir=$libdir" >> "$GITHUB_OUTPUT"
