#!/usr/bin/env bash
# device.sh: issue 31 item 3 on the GPU machine: the default PR run with the
# in-run PyTorch references (perfgate run --rounds 3 --reference torch, the
# default suites at ci), and the same run without them, timed, to decide the
# "on in the default PR run only if it costs <= 20% more time" rule.
#   source .gpu/gpu-env.sh && bash docs/results/torchref/device.sh
# Needs python3 with torch (CUDA) on PATH; flash_attn optional. Aims at 5-6
# minutes on an H100; the parts' timeouts (120 + 260 + 110 + 100 s) keep it
# under the 10 minutes of one device call. ROUNDS=1 shortens it. Last, the
# two suites outside the default run (rowwise, gemm) once with --fast at
# size small, so that every arm has run on a GPU and its check is seen.
# $OUT gets six files (the device tool returns only a few dozen):
#   round-1.json .. round-3.json  the results with references: commit them as
#                  docs/results/torchref/round-*.json (docs/gpu.md's table of
#                  ratios is generated from them, TestGPUDocTorchRatios)
#   speedups.md    perfgate summary --speedups torch of those rounds
#   summary.txt    versions, each part's exit status and time, the timing table,
#                  and every built-in benchmark left without speedup_vs_torch
#   logs.tar.gz    every log, the results without references and rowwise/gemm's
set -u
OUT=${OUT:-/tmp/perfgate-out}
ROUNDS=${ROUNDS:-3}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/perfgate-torchref.XXXXXX)
export PERFGATE_CACHE=$W/cache
pg=/tmp/pg-torchref
sum=$OUT/summary.txt
: > "$sum"
note() { echo "$*" | tee -a "$sum"; }
pack() { tar -czf "$W.tar.gz" -C "$W" --exclude=./cache . 2>/dev/null && mv "$W.tar.gz" "$OUT/logs.tar.gz"; }
secs=()
part() { # part NAME TIMEOUT CMD...: run CMD with a timeout, log to $W/NAME.log, note exit and wall time
  local name=$1 limit=$2 s e rc
  shift 2
  s=$(date +%s%N)
  timeout "$limit" "$@" > "$W/$name.log" 2>&1
  rc=$?
  e=$(date +%s%N)
  secs+=("$name $(( (e - s) / 1000000 )) $rc")
  note "$name: exit $rc in $(( (e - s) / 1000000 )) ms"
  [ $rc -eq 0 ] || tail -5 "$W/$name.log" | sed 's/^/    /' | tee -a "$sum"
  pack
  return 0
}
note "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader)"
note "$(python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1)"
note "$(python3 -c 'import flash_attn; print("flash_attn", flash_attn.__version__)' 2>&1 | tail -1)"
part build 120 go build -tags cuda -o $pg ./cmd/perfgate

# The default PR run (no --suite: the default suites at ci), with the
# references first (the results that matter most), then without.
part with 260 $pg run --rounds "$ROUNDS" --reference torch --out "$W/with/"
part without 110 $pg run --rounds "$ROUNDS" --out "$W/without/"
part rowwise-gemm 100 $pg run --suite rowwise,gemm --size small --fast --reference torch --out "$W/rowwise-gemm/round-1.json"
cp "$W"/with/round-*.json "$OUT/" 2>/dev/null
$pg summary --speedups torch "$W"/with/round-*.json > "$OUT/speedups.md" 2>> "$W/speedups.log"
note "speedups: perfgate summary --speedups torch: exit $? ($(grep -c '^| <code>' "$OUT/speedups.md") rows)"

python3 - "$W" "${secs[@]}" <<'PY' | tee -a "$sum"
import glob, json, os, sys
w, parts = sys.argv[1], [p.split() for p in sys.argv[2:]]
t = {name: (float(ms) / 1e3, rc) for name, ms, rc in parts}
def load(d):
    out = []
    for f in sorted(glob.glob(os.path.join(w, d, "round-*.json"))):
        out.extend(json.load(open(f))["benchmarks"])
    return out
with_, without, extra = load("with"), load("without"), load("rowwise-gemm")
print("\n| default PR run | wall s | exit | benchmarks (all rounds) |\n|---|--:|--:|--:|")
for name, bs in (("without", without), ("with", with_)):
    s, rc = t.get(name, (float("nan"), "?"))
    print("| %s --reference torch | %.1f | %s | %d |" % (name, s, rc, len(bs)))
if "with" in t and "without" in t:
    over = 100 * (t["with"][0] / t["without"][0] - 1)
    print("\nreferences cost %+.1f%% of the default PR run's time: %s the 20%% rule" % (over, "within" if over <= 20 else "OVER"))
mapped = ("elementwise", "rowwise", "gemm", "attention", "decode", "microbatch", "mixedops")
own = [b for b in with_ + extra if b["suite"] in mapped and not b["name"].startswith("torch.")]
arms = [b for b in with_ + extra if b["name"].startswith("torch.")]
missing = [b for b in own if "speedup_vs_torch" not in b.get("metrics", {})]
print("\nwith the rowwise/gemm run: %d built-in benchmarks with a PyTorch equivalent, %d without speedup_vs_torch; %d arms, %d in error"
      % (len(own), len(missing), len(arms), sum(1 for b in arms if b.get("error"))))
for b in missing[:10]:
    print("  missing: %s/%s %s" % (b["suite"], b["name"], b.get("error", "")))
for b in [b for b in arms if b.get("error")][:10]:
    print("  arm error: %s/%s: %s" % (b["suite"], b["name"], b["error"][:200]))
PY
pack
cat "$OUT/speedups.md"
