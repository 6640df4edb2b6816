set -u
pg=/tmp/pg-smoke
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
s=$(date +%s)
timeout 200 $pg run --suite elementwise,microbatch,mixedops,decode,attention,rowwise,gemm --size ci --fast --reference torch --out $OUT/smoke.json 2> $OUT/smoke.log
echo "smoke: exit $? in $(($(date +%s)-s)) s"
tail -5 $OUT/smoke.log
python3 - $OUT/smoke.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bs = d["benchmarks"]
arms = [b for b in bs if "torch." in b["name"].split("/")[0]]
errs = [b for b in bs if b.get("error")]
print("benchmarks", len(bs), "torch arms", len(arms), "errors", len(errs))
for b in errs[:40]:
    print("ERR", b["suite"], b["name"][:70], "|", b["error"][:300])
own = [b for b in bs if b not in arms and not b.get("error")]
miss = [b["suite"] + "/" + b["name"] for b in own if not any(k.startswith("speedup_vs_torch") for k in b["metrics"])]
print("own without speedup_vs_torch:", len(miss), "of", len(own)); print("\n".join(miss[:15]))
for b in own[:0]: pass
import collections
c = collections.Counter(b["suite"] for b in arms); print(dict(c))
for b in own:
    if "speedup_vs_torch" in b["metrics"]:
        print("e.g.", b["suite"], b["name"], round(b["metrics"]["speedup_vs_torch"], 3)); break
PY
