#!/usr/bin/env bash
# perfgate ab with a user kernel suite on the lent GPU (issue 6): a throwaway
# git repository holding examples/kernels/saxpy.cu and a kernel-only config.
# SLOWDOWN=strided (first run): each thread's UNROLL elements become adjacent
# instead of blockDim.x apart. SLOWDOWN=extra-read (second run): one more
# 4-byte load per element (16 instead of 12 bytes of traffic, ~+33%). Runs:
#   1. ab --base HEAD~1: the slowdown, judged by the usual rules;
#   2. ab --base HEAD (A/A, both sides identical): no regression.
# Run from a snapshot of the repository (perfgate source) on the GPU machine,
# after `source .gpu/gpu-env.sh`; writes under $OUT.
set -euo pipefail
src=$(pwd)
go build -tags cuda -o /tmp/perfgate ./cmd/perfgate
command -v git >/dev/null || { echo "no git on this machine"; exit 3; }
repo=/tmp/abrepo; rm -rf $repo; mkdir -p $repo
cp examples/kernels/saxpy.cu $repo/
cat > $repo/.perfgate.yml <<'YML'
version: 1
suites:
  - name: saxpy
    kernel:
      source: saxpy.cu
      entry: saxpy
      options: ["-DUNROLL=4"]
      sweep:
        n: [16777216]
      buffers:
        - {name: x, dtype: fp32, len: n, init: random}
        - {name: y, dtype: fp32, len: n, init: random, output: true}
      args: [x, y, {value: 2, dtype: fp32}, {value: n, dtype: i32}]
      grid: cdiv(n, 256 * 4)
      block: 256
      bytes: 12 * n
      flops: 2 * n
      reference:
        entry: saxpy_ref
YML
cd $repo
git init -q && git add -A && git -c user.email=ci@perfgate -c user.name=perfgate commit -qm base
if [ "${SLOWDOWN:-extra-read}" = strided ]; then
  sed -i 's/int base = blockIdx.x \* blockDim.x \* UNROLL + threadIdx.x;/int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;/; s/int i = base + u \* blockDim.x;/int i = base + u;/' saxpy.cu
else # 0.0f * x cannot be folded away (0 * inf is NaN), and adds 0 for finite x: y stays correct
  sed -i '0,/y\[i\] = a \* x\[i\] + y\[i\];/s//y[i] = a * x[i] + y[i] + 0.0f * x[(i + n \/ 2) % n];/' saxpy.cu
fi
git diff
git -c user.email=ci@perfgate -c user.name=perfgate commit -qam "saxpy: slower (${SLOWDOWN:-extra-read})"
set +e
/tmp/perfgate ab --base HEAD~1 --rounds 4 --fast --testbed h100 --out-base $OUT/ab-slow-base.json --out-head $OUT/ab-slow-head.json 2>$OUT/ab-slow.stderr | tee $OUT/ab-slow.txt
echo "ab slowdown exit: ${PIPESTATUS[0]}"
/tmp/perfgate ab --base HEAD --rounds 4 --fast --testbed h100 --out-base $OUT/ab-aa-base.json --out-head $OUT/ab-aa-head.json 2>$OUT/ab-aa.stderr | tee $OUT/ab-aa.txt
echo "ab A/A exit: ${PIPESTATUS[0]}"
tail -n 3 $OUT/ab-slow.stderr $OUT/ab-aa.stderr
