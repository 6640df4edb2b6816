#!/usr/bin/env bash
# device.sh: issue 31 item 5 on the GPU machine, in one call: flash2 (the
# FlashAttention-2 split of the tiled kernel for the prefill shapes) against
# the tiled kernel as it was (flash) and PyTorch's SDPA, side by side, and
# Nsight Compute's view of flash, flash2 and SDPA's kernel on one shape.
#   source .gpu/gpu-env.sh && bash docs/results/attention-flash2/device.sh
# Binaries: pg-flash (the tree with flash2 disabled: flash2() answers false),
# pg-flash2-64 and pg-flash2-32 (ATT2_BN 64 and 32 keys per tile). Each runs
# the attention suite's tiled prefill benchmarks (correctness against the
# CPU and against naive checked as always); sdpa.py times SDPA; table.py
# prints the ratios. $OUT: summary.txt, table.md, ncu.txt, results.tar.gz.
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
here=docs/results/attention-flash2
W=$(mktemp -d /tmp/flash2.XXXXXX)
mkdir -p "$OUT"
sum=$OUT/summary.txt
note() { echo "$*" | tee -a "$sum"; }
note "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader)"
cp kernels/cu/attention.cu kernels/attention.go $W/
build() { # build NAME: a binary of the tree as it is now
  go build -tags cuda -o $W/pg-$1 ./cmd/perfgate && note "built $1" || note "build $1 FAILED"
}
sed -i 's/^func flash2(s attnShape) bool { return .*/func flash2(s attnShape) bool { return false }/' kernels/attention.go
build flash
cp $W/attention.go kernels/attention.go
build flash2-64
sed -i 's/^#define ATT2_BN 64/#define ATT2_BN 32/' kernels/cu/attention.cu
sed -i 's/^const flash2Keys = 64/const flash2Keys = 32/' kernels/attention_cuda.go
build flash2-32
cp $W/attention.cu kernels/cu/attention.cu
sed -i 's/^const flash2Keys = 32/const flash2Keys = 64/' kernels/attention_cuda.go

# ptxas of this machine's toolkit on both tile widths: registers and spills.
src() { cat kernels/cu/common.cu; echo '#line 1 "attention.cu"'; cat kernels/cu/attention.cu; }
for bn in 64 32; do
  src | sed "s/^#define ATT2_BN 64/#define ATT2_BN $bn/" > $W/att$bn.cu
  /usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -std=c++17 -Xptxas -v -o $W/att$bn.cubin $W/att$bn.cu 2>&1 |
    grep -A2 "Compiling entry function 'flash" | grep -E "entry|spill|Used" | paste - - - | sed 's/ptxas info *: //g' | sed "s/^/BN=$bn /" >> $W/ptxas.txt
done
grep -E "flash2?_(causal_)?bf16_d128" $W/ptxas.txt | cut -c1-260 | tee -a "$sum"

meta=(--repo perfgate/perfgate --testbed lent --commit 0000000000000000000000000000000000000000 --branch main --event push)
for v in flash flash2-64 flash2-32; do
  s=$(date +%s)
  timeout 150 $W/pg-$v run "${meta[@]}" --suite attention --size medium --max-time 0.5s \
    --filter 'tiled/.*/s=(2048|4096)/' --out $W/$v.json 2> $W/$v.log
  note "run $v: exit $? in $(($(date +%s) - s)) s; $(grep -ciE 'error|mismatch' $W/$v.log) error lines"
  grep -iE "error|mismatch" $W/$v.log | head -3 | tee -a "$sum"
done
timeout 120 python3 $here/sdpa.py > $W/sdpa.jsonl 2> $W/sdpa.log
note "sdpa.py: exit $?"
python3 $here/table.py $W/sdpa.jsonl flash=$W/flash.json flash2-64=$W/flash2-64.json flash2-32=$W/flash2-32.json > $OUT/table.md 2>&1
cat $OUT/table.md

# Nsight Compute on (8,16,2048,128) bf16, not causal: flash, the better
# flash2, and the kernel PyTorch's default SDPA runs.
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats)
prof() { # prof NAME KERNEL-REGEX CMD...
  local name=$1 re=$2
  shift 2
  timeout 120 /usr/local/cuda/bin/ncu "${sections[@]}" --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 -f -o $W/$name "$@" > $W/ncu-$name.log 2>&1
  local rc=$?
  note "ncu $name: exit $rc"
  [ $rc -eq 0 ] || tail -4 $W/ncu-$name.log | tee -a "$sum"
  /usr/local/cuda/bin/ncu -i $W/$name.ncu-rep --page details --print-units base > $W/ncu-$name.txt 2>&1
  { echo "===== $name"; grep -E "^  [A-Za-z]|^    [A-Z][A-Za-z /.-]+ {2,}" $W/ncu-$name.txt | grep -vE "^    -+|Section:" ; } >> $OUT/ncu.txt
}
one='tiled/dtype=bf16/b=8/h=16/s=2048/d=128/causal=false/mode=batch'
prof flash '^flash_bf16_d128$' $W/pg-flash run "${meta[@]}" --suite attention --size medium --max-time 0.2s --filter "$one" --out $W/ncu-run.json
prof flash2 '^flash2_bf16_d128$' $W/pg-flash2-64 run "${meta[@]}" --suite attention --size medium --max-time 0.2s --filter "$one" --out $W/ncu-run2.json
cat > $W/one.py <<'PY'
import torch, torch.nn.functional as F
torch.manual_seed(42)
q, k, v = (torch.empty(8, 16, 2048, 128, dtype=torch.bfloat16, device="cuda").uniform_(-2, 2) for _ in range(3))
for _ in range(6):
    F.scaled_dot_product_attention(q, k, v)
torch.cuda.synchronize()
PY
prof sdpa 'flash|fmha|attn|sdpa|cudnn|sm90|Flash|Attention' python3 $W/one.py
cp $W/ptxas.txt $OUT/ 2>/dev/null
tar -czf $OUT/results.tar.gz -C $W --exclude='pg-*' --exclude='*.cubin' --exclude='*.cu' . 2>/dev/null
