#!/usr/bin/env bash
# cross-arm64.sh: builds perfgate for linux/arm64 (GH200, GB200 hosts) on an
# amd64 machine without a GPU, and runs what can run there:
#
#   1. perfgate-linux-arm64: CGO_ENABLED=0, static; it runs its host-only
#      suite (cmdpath, mode=host) under qemu-user (qemu-aarch64) when that is
#      installed (apt-get install qemu-user), and its results file is checked.
#   2. perfgate-linux-arm64-cuda: -tags cuda with aarch64-linux-gnu-gcc
#      (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross), against
#      the cuda.h in CUDA_INCLUDE (default /usr/include: headers are the same
#      for every architecture) and a stub libcuda.so.1 made here from that
#      cuda.h's function names (no arm64 toolkit needed). It is checked to need
#      only libcuda.so.1 and libc; it cannot run here (no arm64 driver), and
#      no arm64 GPU host was available to run it: that is not tested.
#
# Skips (exit 0, saying so) what lacks its tool unless REQUIRE_ARM64=1.
# Env: VERSION (default devel), CUDA_INCLUDE, REQUIRE_ARM64, OUTDIR (where
# the binaries go, e.g. dist for a release; default a temporary folder,
# removed at the end: a CI check leaves nothing in the checkout).
set -euo pipefail
VERSION=${VERSION:-devel}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${OUTDIR:-$work/dist}
mkdir -p "$out"
need() {
  if command -v "$1" >/dev/null 2>&1; then
    return 0
  fi
  if [ "${REQUIRE_ARM64:-}" = 1 ]; then
    echo "cross-arm64: $1 is missing (REQUIRE_ARM64=1): $2" >&2
    exit 1
  fi
  echo "cross-arm64: skipped: $1 is missing ($2)"
  return 1
}

static=$out/perfgate-linux-arm64
CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -ldflags "-X main.version=$VERSION" -o "$static" ./cmd/perfgate
echo "cross-arm64: built $static ($(file -b "$static" 2>/dev/null | cut -d, -f1-2 || echo arm64))"
if need qemu-aarch64 "apt-get install qemu-user"; then
  qemu-aarch64 "$static" version
  qemu-aarch64 "$static" run --suite cmdpath --fast --max-time 20ms --commit "$(printf 'a%.0s' {1..40})" --out "$work/cmdpath.json" 2> "$work/run.log" ||
    { cat "$work/run.log" >&2; exit 1; }
  n=$(grep -o '"mode": *"host"' "$work/cmdpath.json" | wc -l)
  if [ "$n" -eq 0 ] || grep -q '"error"' "$work/cmdpath.json"; then
    echo "cross-arm64: the cmdpath results under qemu-aarch64 have no host benchmark, or an error:" >&2
    cat "$work/run.log" "$work/cmdpath.json" >&2
    exit 1
  fi
  echo "cross-arm64: cmdpath ran under qemu-aarch64: $n mode=host benchmarks, no errors"
fi

if need aarch64-linux-gnu-gcc "apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross"; then
  inc=${CUDA_INCLUDE:-/usr/include}
  if [ ! -f "$inc/cuda.h" ]; then
    echo "cross-arm64: no $inc/cuda.h for the CUDA build (set CUDA_INCLUDE)" >&2
    exit 1
  fi
  # A stub libcuda.so.1: every cu* name cuda.h declares or maps a call to.
  grep -oE '\bcu[A-Z][A-Za-z0-9_]*\b' "$inc/cuda.h" | sort -u | sed 's/.*/void &(void) {}/' > "$work/stub.c"
  mkdir -p "$work/lib" "$work/include"
  aarch64-linux-gnu-gcc -shared -fPIC -o "$work/lib/libcuda.so" -Wl,-soname,libcuda.so.1 "$work/stub.c"
  ln -s "$inc/cuda.h" "$work/include/cuda.h"
  cuda=$out/perfgate-linux-arm64-cuda
  CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc CGO_CFLAGS="-I$work/include" CGO_LDFLAGS="-L$work/lib" \
    go build -tags cuda -trimpath -ldflags "-X main.version=$VERSION" -o "$cuda" ./cmd/perfgate
  needed=$(aarch64-linux-gnu-readelf -d "$cuda" 2>/dev/null || readelf -d "$cuda")
  needed=$(echo "$needed" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | paste -sd' ' -)
  echo "cross-arm64: built $cuda against $(grep -m1 'define CUDA_VERSION' "$inc/cuda.h"); needs: $needed"
  for l in $needed; do
    case "$l" in
      libcuda.so.1|libc.so.6|ld-linux-aarch64.so.1|libdl.so.2|libpthread.so.0|libm.so.6) ;;
      *) echo "cross-arm64: $cuda needs $l, which a CUDA 12 or 13 host may not have" >&2; exit 1 ;;
    esac
  done
fi
