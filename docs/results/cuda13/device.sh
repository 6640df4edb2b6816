#!/usr/bin/env bash
# device.sh checks issue 26 on the lent GPU machine (CUDA 13.0 toolkit,
# driver 580) with nothing but its CUDA 13 toolkit: no Triton cuda.h, no
# cuda-include, no CGO_CFLAGS. From the repository root, after pack.sh:
#   bash docs/results/cuda13/device.sh
# Optional: PG_RELEASE_BIN (default: .gpu/pg-release.xz unpacked), a perfgate
# binary built without a GPU against CI's CUDA 11.8 headers, also run here. Logs land in $OUT (8 files at most).
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
mkdir -p "$OUT"
source .gpu/gpu-env.sh >/dev/null
unset CGO_CFLAGS CGO_LDFLAGS # gpu-env.sh points them at Triton's 12.8 cuda.h
sum="$OUT/summary.txt"
stage() { echo "== $(date -u +%T) $*" | tee -a "$sum"; }

stage host
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  grep -m1 'define CUDA_VERSION' /usr/local/cuda/include/cuda.h
  ls /usr/local/cuda/lib64/ | grep -E '^lib(nvrtc|cublas)\.so\.[0-9]+$'
  ldconfig -p | grep -E 'libnvrtc\.so|libcuda\.so|libcublas\.so' | head
  go version
} >> "$sum" 2>&1

stage "action/build.sh, cuda: auto, no cuda-include"
export RUNNER_TEMP=/tmp/pg-runner GITHUB_OUTPUT=/tmp/pg-runner/gh-output GITHUB_ACTION_PATH=$PWD GITHUB_WORKSPACE=$PWD \
  PERFGATE_CUDA=auto PERFGATE_CUDA_INCLUDE=
rm -rf "$RUNNER_TEMP" && mkdir -p "$RUNNER_TEMP"
start=$(date +%s)
bash action/build.sh > "$OUT/build.log" 2>&1
echo "build.sh exit $? in $(( $(date +%s) - start )) s" | tee -a "$sum"
cat "$GITHUB_OUTPUT" >> "$OUT/build.log"
grep -E '^perfgate:|::(error|notice)' "$OUT/build.log" | tee -a "$sum"
bin=$RUNNER_TEMP/perfgate-action/perfgate
libdir=$(sed -n 's/^libdir=//p' "$GITHUB_OUTPUT")

stage "ldd and the libraries loaded"
{
  echo "--- ldd $bin"; ldd "$bin"
  echo "--- driver API symbols the binary needs that libcuda.so.1 lacks (none expected)"
  lc=$(ldconfig -p | awk '$1 == "libcuda.so.1" {print $NF; exit}')
  comm -23 <(nm -D --undefined-only "$bin" | awk '$2 ~ /^cu/ {print $2}' | sort -u) <(nm -D --defined-only "$lc" | awk '{print $3}' | sort -u)
  echo "--- LD_DEBUG=libs: what perfgate doctor dlopens"
  LD_DEBUG=libs "$bin" doctor 2>&1 >/dev/null | grep -E 'calling init|find library=lib(nvrtc|cublas|nvidia-ml)' | sed 's/^ *[0-9]*: *//' | sort -u
} > "$OUT/ldd.txt" 2>&1
grep -E 'libcuda|libnvrtc|not found' "$OUT/ldd.txt" | head -5 | tee -a "$sum"

stage "perfgate doctor"
"$bin" doctor > "$OUT/doctor.txt" 2>&1
echo "doctor exit $?" | tee -a "$sum"
grep -E 'CUDA|nvrtc|cuda' "$OUT/doctor.txt" | tee -a "$sum"

stage "perfgate run --fast, default suites, 1 round (LD_LIBRARY_PATH=$libdir as the action sets)"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 150 "$bin" run --fast --out "$OUT/run.json" > "$OUT/run.log" 2>&1
echo "run exit $?" | tee -a "$sum"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); b=d.get('benchmarks',[]); print(len(b),'benchmarks;', 'nvrtc', d['run'].get('env',{}).get('nvrtc'), d['run'].get('env',{}).get('nvrtc_lib'))" "$OUT/run.json" 2>&1 | tee -a "$sum"

stage "PERFGATE_REQUIRE_GPU=1 go test -tags cuda -count=1 ./kernels/... (no CGO_CFLAGS)"
PERFGATE_REQUIRE_GPU=1 timeout 180 go test -tags cuda -count=1 ./kernels/... > "$OUT/gotest.log" 2>&1
echo "go test exit $?" | tee -a "$sum"
grep -E '^(--- FAIL|ok|FAIL)' "$OUT/gotest.log" | tee -a "$sum"

if [ -z "${PG_RELEASE_BIN:-}" ] && [ -f .gpu/pg-release.xz ]; then
  xz -dc .gpu/pg-release.xz > /tmp/pg-release && chmod +x /tmp/pg-release && PG_RELEASE_BIN=/tmp/pg-release
fi
if [ -n "${PG_RELEASE_BIN:-}" ] && [ -x "$PG_RELEASE_BIN" ]; then
  stage "release-style binary $PG_RELEASE_BIN (built without a GPU)"
  {
    ldd "$PG_RELEASE_BIN"
    "$PG_RELEASE_BIN" doctor
    timeout 150 "$PG_RELEASE_BIN" run --fast --out /tmp/pg-release.json
    echo "release run exit $?"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); b=d.get('benchmarks',[]); print(len(b),'benchmarks,', sum(1 for x in b if x.get('error')),'errors')" /tmp/pg-release.json
  } > "$OUT/release.txt" 2>&1
  grep -E 'libnvrtc|libcuda|nvrtc|exit|benchmarks' "$OUT/release.txt" | tee -a "$sum"
fi
stage done
