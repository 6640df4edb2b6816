#!/usr/bin/env bash
# Builds dist/perfgate-linux-arm64 (static) and dist/perfgate-linux-arm64-cuda
# (-tags cuda, for GH200 and GB200 hosts) with cross-arm64.sh, which also runs
# the static binary's host-only suite (cmdpath) under qemu-aarch64 and checks
# that the CUDA one needs only libcuda.so.1 and libc. REQUIRE_ARM64=1: a
# missing cross tool fails the release instead of leaving an asset out.
#
# The cross tools come from apt when missing (a GitHub runner has none). The
# CUDA build needs a cuda.h (the same for every architecture): CUDA_ROOT's
# (the repository variable PERFGATE_RELEASE_CUDA_ROOT, as build-cuda.sh), or
# else the one of the nvidia/cuda 11.8 image the amd64 CUDA binary is built in.
#
# Env: VERSION (the tag), CUDA_ROOT.
set -euo pipefail
: "${VERSION:?}"
missing=()
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
if [ ${#missing[@]} -gt 0 ]; then
  sudo apt-get update -q
  sudo apt-get install -y -q "${missing[@]}"
fi
if [ -n "${CUDA_ROOT:-}" ]; then
  inc=$CUDA_ROOT/include
else
  inc=$(mktemp -d)
  trap 'rm -rf "$inc"' EXIT
  docker run --rm nvidia/cuda:11.8.0-devel-ubuntu22.04 cat /usr/local/cuda/include/cuda.h > "$inc/cuda.h"
fi
mkdir -p dist
OUTDIR=dist REQUIRE_ARM64=1 CUDA_INCLUDE=$inc bash .github/release/cross-arm64.sh
