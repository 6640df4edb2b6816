"""Prints per-step decode times and speedups over per-launch from a perfgate results file."""
import json
import sys

res = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    p = b["params"]
    if b.get("error"):
        print("ERROR", b["name"], b["error"][:200])
        continue
    res[(p["dtype"], int(p["l"]), p["mode"], b["name"].split("/")[0])] = b["metrics"]
print("dtype L mode | per_launch cuda_graph persistent (us/step) | graph x persistent x | kv in smem | cv pl/gr/pe %")
for k in sorted({k[:3] for k in res}):
    r = {op: res.get(k + (op,)) for op in ("per_launch", "cuda_graph", "persistent")}
    if not all(r.values()):
        continue
    us = {op: m["median_us"] for op, m in r.items()}  # per step (ops = L)
    print(*k, "| %.2f %.2f %.2f | %.2f %.2f | %d | %s" % (
        us["per_launch"], us["cuda_graph"], us["persistent"],
        us["per_launch"] / us["cuda_graph"], us["per_launch"] / us["persistent"],
        r["persistent"].get("kv_positions_in_shared", -1),
        "/".join("%.2f" % (100 * r[op].get("cv", 0)) for op in r)))
