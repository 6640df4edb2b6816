#!/usr/bin/env bash
# launchpath.sh: the Go harness, then launchpath.py's ways (VARIANTS, default six) of timing the
# same PTX from Python, each in processes of its own, twice (the second
# round in the reverse order), on the same GPU in one call.
#   source .gpu/gpu-env.sh && bash docs/results/python/launchpath.sh
# $OUT/launchpath.txt gets the table; $OUT/launchpath.tar.gz the raw lines and logs.
set -u
OUT=${OUT:-/tmp/perfgate-out}
here=docs/results/python
W=$(mktemp -d /tmp/perfgate-launch.XXXXXX)
mkdir -p "$OUT"
pg=${PG:-/tmp/pg-launch}
[ -x "$pg" ] || go build -tags cuda -o $pg ./cmd/perfgate || exit 1
sed -e 's/n: \[[0-9, ]*\]/n: [1048576]/' -e 's/unroll: \[1, 4\]/unroll: [1]/' examples/kernels/.perfgate.yml > examples/kernels/.lp.perfgate.yml
for r in 1 2; do
  timeout 90 $pg run --suite elementwise --size small --dtype fp32 --op add --out $W/go-add-$r.json 2> $W/go-add-$r.log
  echo "go add $r: exit $?"
  timeout 90 $pg run --config examples/kernels/.lp.perfgate.yml --suite saxpy --out $W/go-saxpy-$r.json 2> $W/go-saxpy-$r.log
  echo "go saxpy $r: exit $?"
  order=${VARIANTS:-"own primary torchimport torchctx torchgraph harness"}
  [ $r = 2 ] && order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
  for v in $order; do
    timeout 120 python3 $here/launchpath.py $v $W/lines.jsonl > $W/$v-$r.log 2>&1
    echo "$v $r: exit $?"
    tail -2 $W/$v-$r.log
  done
done
rm -f examples/kernels/.lp.perfgate.yml
python3 - "$W" > $OUT/launchpath.txt <<'PY'
import collections, json, glob, os, sys
w = sys.argv[1]
rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(w, "go-*.json"))):
    try:
        d = json.load(open(f))
    except ValueError:
        continue
    for b in d["benchmarks"]:
        if b.get("error"):
            continue
        n = b["name"].replace("n=4K", "n=4096").replace("n=1M", "n=1048576")
        parts = [p for p in n.split("/") if not p.startswith(("dtype=",))]
        work, mode = "/".join(parts).rsplit("/mode=", 1)
        if work in ("add/n=4096", "add/n=1048576", "saxpy/n=1048576/unroll=1"):
            rows[(work, mode, "go")].append(b["metrics"]["median_us"])
ptx, graphs = {}, {}
order = ["go", "own", "primary", "torchimport", "torchctx", "ctx_autofree", "ctx_legacy", "ctx_sidewarm", "ctx_pool", "ctx_hiprio", "ctx_many", "ctx_many_launch", "ctx_warm_same", "ctx_warm_same_other", "ctx_eager_other", "product", "ctx_legacy_warm", "ctx_legacy_many", "ctx_nb_many", "harness_nb", "product_nb", "tgc_clean", "tgc_raw_clean", "ctx_sleepblock", "ctx_torchbuf", "torchgraph", "tg_nb", "tg_tl", "tg_raw", "tg_raw_af", "tg_raw_nb", "tg_ext", "harness_memset", "harness"]
for line in open(os.path.join(w, "lines.jsonl")):
    r = json.loads(line)
    if "graph" in r and r["work"] == "add/n=1048576":
        graphs[r["variant"]] = r["graph"]
    rows[(r["work"], r["mode"], r["variant"])].append(r["median_us"])
    ptx.setdefault(r["work"], set()).add(r["ptx"])
variants = ["go"] + sorted({k[2] for k in rows} - {"go"}, key=lambda v: order.index(v) if v in order else 99)
cols = [(w, m) for w in ("add/n=4096", "add/n=1048576", "saxpy/n=1048576/unroll=1") for m in ("batch", "cold")]
print("median per launch (us) in each of two processes, and the mean's ratio to the Go harness's mean")
print("%-13s " % "variant" + " ".join("%-24s" % ("%s %s" % (w.replace("/unroll=1", "").replace("n=1048576", "1M").replace("n=4096", "4K"), m)) for w, m in cols))
for v in variants:
    cells = []
    for w, m in cols:
        xs, go = rows.get((w, m, v), []), rows.get((w, m, "go"), [])
        if not xs or not go:
            cells.append("%-24s" % "-")
            continue
        r = (sum(xs) / len(xs)) / (sum(go) / len(go))
        cells.append("%-24s" % ("%s  %.3f" % ("/".join("%.3f" % x for x in xs), r)))
    print("%-13s " % v + " ".join(cells))
print("PTX digests by work (every variant):", {k: sorted(v) for k, v in ptx.items()})
print("captured graphs (batch; nodes, node types, edges, first kernel node's launch attributes):")
for v, g in sorted(graphs.items()):
    print("  %-13s %s" % (v, g))
PY
cat $OUT/launchpath.txt
tar -czf $OUT/launchpath.tar.gz -C $W .
