#!/usr/bin/env bash
# Builds dist/perfgate-linux-amd64-cuda with -tags cuda: one binary for CUDA
# 12 and 13 hosts (docs/action.md, "Versions and releases"). It links only the
# driver's libcuda.so.1 (NVRTC is loaded at run time, kernels/libload.go), and
# is built against CUDA 11.8 headers, whose driver API entry points every
# CUDA 12 and 13 driver has: the build CI tests, and the one that ran the
# default suites on an H100 with CUDA 13 (docs/results/cuda13/).
#
# By default in the nvidia/cuda:11.8.0-devel-ubuntu22.04 image: CUDA 11.8
# headers, and Ubuntu 22.04's older glibc, so the binary runs on more hosts;
# with this job's Go and module cache.
#
# With CUDA_ROOT (the repository variable PERFGATE_RELEASE_CUDA_ROOT), on the
# runner instead, against the toolkit there: CUDA_ROOT/include (cuda.h and
# nvrtc.h) and its lib64 or lib, e.g. /usr/local/cuda-12.8, or /usr for
# Debian's nvidia-cuda-toolkit (any CUDA 11.8 to 13.x: the asset's name is
# the same). The act test uses that: it has no Docker.
#
# Env: VERSION (the tag), CUDA_ROOT.
set -euo pipefail
: "${VERSION:?}"
mkdir -p dist

if [ -z "${CUDA_ROOT:-}" ]; then
  docker run --rm -v "$PWD:/src" -v "$(go env GOROOT):/goroot:ro" -v "$(go env GOMODCACHE):/gomod" -w /src \
    -e VERSION -e GOMODCACHE=/gomod -e GOFLAGS=-buildvcs=false -e HOME=/tmp \
    nvidia/cuda:11.8.0-devel-ubuntu22.04 bash -c '
      set -euo pipefail
      export PATH=/goroot/bin:$PATH CGO_ENABLED=1
      export CGO_CFLAGS="-I/usr/local/cuda/include" CGO_LDFLAGS="-L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs"
      go build -tags cuda -trimpath -ldflags "-X main.version=$VERSION" -o dist/perfgate-linux-amd64-cuda ./cmd/perfgate'
  sudo chown -R "$(id -u)" dist
  echo "built dist/perfgate-linux-amd64-cuda in nvidia/cuda:11.8.0-devel-ubuntu22.04"
  exit 0
fi

h="$CUDA_ROOT/include/cuda.h"
if [ ! -f "$h" ] || [ ! -f "$CUDA_ROOT/include/nvrtc.h" ]; then
  echo "::error title=release::CUDA_ROOT=$CUDA_ROOT has no include/cuda.h and include/nvrtc.h"
  exit 1
fi
v=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$h" | head -n1)
if [ -z "$v" ]; then
  echo "::error title=release::$h defines no CUDA_VERSION"
  exit 1
fi
ldflags=""
for d in lib64 lib lib/x86_64-linux-gnu lib64/stubs lib/stubs; do
  if [ -d "$CUDA_ROOT/$d" ]; then
    ldflags="$ldflags -L$CUDA_ROOT/$d"
  fi
done
out=dist/perfgate-linux-amd64-cuda
CGO_ENABLED=1 CGO_CFLAGS="-I$CUDA_ROOT/include" CGO_LDFLAGS="${ldflags# }" \
  go build -tags cuda -trimpath -ldflags "-X main.version=$VERSION" -o "$out" ./cmd/perfgate
echo "built $out against $h (CUDA_VERSION $v)"
