#!/usr/bin/env bash
# device-cu-common.sh: one device call checking a change to kernels/cu that
# should not change the kernels' behaviour (the shared-memory, cp.async and
# mma helpers moved into common.cu): the kernels' GPU tests on this tree,
# then attention at S = 2048 and decode at size small with the binary of
# OLD (a copy of the tree before) and of this tree, alternating, and
# PyTorch's SDPA for the same attention shapes.
#   source .gpu/gpu-env.sh && OLD=../old bash docs/results/device-cu-common.sh
set -uo pipefail
OUT=${OUT:-/tmp/perfgate-out}
OLD=${OLD:?OLD= a copy of the tree before the change}
mkdir -p "$OUT"
go build -tags cuda -o /tmp/pg-new ./cmd/perfgate || exit 1
(cd "$OLD" && go build -tags cuda -o /tmp/pg-old ./cmd/perfgate) || exit 1
PERFGATE_REQUIRE_GPU=1 timeout 150 go test -tags cuda -count=1 ./kernels/... > "$OUT/go-test.log" 2>&1
echo "PERFGATE_REQUIRE_GPU=1 go test -tags cuda ./kernels/...: exit $?" | tee "$OUT/summary.txt"
tail -2 "$OUT/go-test.log" | tee -a "$OUT/summary.txt"
for round in 1 2; do
  for b in old new; do
    /tmp/pg-$b run --suite attention --filter '/s=2048/' --max-time 1s --out "$OUT/attention-$b-$round.json" > "$OUT/attention-$b-$round.log" 2>&1 || echo "attention $b $round: exit $?" | tee -a "$OUT/summary.txt"
    /tmp/pg-$b run --suite decode --size small --max-time 1s --out "$OUT/decode-$b-$round.json" > "$OUT/decode-$b-$round.log" 2>&1 || echo "decode $b $round: exit $?" | tee -a "$OUT/summary.txt"
  done
done
PACE=1 PYTHONUNBUFFERED=1 timeout 120 python3 docs/results/torch_attention.py > "$OUT/torch-attention.jsonl" 2> "$OUT/torch.err"
echo "torch_attention.py: exit $?, $(wc -l < "$OUT/torch-attention.jsonl") records" | tee -a "$OUT/summary.txt"
python3 - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys, statistics
out = sys.argv[1]
def med(path):
    d = json.load(open(path))
    return {b["name"]: statistics.median(b["samples"]) for b in d["benchmarks"] if b.get("samples")}
for suite in ("attention", "decode"):
    ratios = []
    for r in (1, 2):
        old, new = med(f"{out}/{suite}-old-{r}.json"), med(f"{out}/{suite}-new-{r}.json")
        ratios += [new[n] / old[n] for n in old if n in new]
    ratios.sort()
    print(f"{suite}: {len(ratios)} pairs, new/old median {statistics.median(ratios):.4f}, range {ratios[0]:.4f}-{ratios[-1]:.4f}")
torch = [json.loads(l) for l in open(f"{out}/torch-attention.jsonl") if l.strip()]
new = med(f"{out}/attention-new-2.json")
for t in torch:
    if t.get("S") != 2048 or t.get("backend") != "flash" or not t.get("samples_us"):
        continue
    c = "true" if t["causal"] else "false"
    n = f"tiled/dtype={t['precision']}/b={t['B']}/h={t['H']}/s=2048/d={t['d']}/causal={c}/mode={t['mode']}"
    if n in new:
        f = statistics.median(t["samples_us"])
        print(f"{n}: tiled {new[n]:.1f} us, torch flash {f:.1f} us, flash/tiled {f / new[n]:.3f}")
PY
