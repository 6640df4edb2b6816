"""Prints per-step decode times and speedups over per-launch from a perfgate results file,
then the median CV of the benchmarks whose pass of L steps takes at least 100 µs."""
import json
import statistics
import sys

res = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    p = b["params"]
    if b.get("error"):
        print("ERROR", b["name"], b["error"][:200])
        continue
    res[(p["dtype"], int(p["l"]), p["mode"], b["name"].split("/")[0])] = b["metrics"]
print("dtype L mode | per_launch cuda_graph persistent (us/step) | graph x persistent x | persistent tokens/s | kv smem/regs, warps | cv pl/gr/pe %")
for k in sorted({k[:3] for k in res}):
    r = {op: res.get(k + (op,)) for op in ("per_launch", "cuda_graph", "persistent")}
    if not all(r.values()):
        continue
    us = {op: m["median_us"] for op, m in r.items()}  # per step (ops = L)
    pe = r["persistent"]
    print(*k, "| %.2f %.2f %.2f | %.2f %.2f | %.2f M | %d/%d, %d | %s" % (
        us["per_launch"], us["cuda_graph"], us["persistent"],
        us["per_launch"] / us["cuda_graph"], us["per_launch"] / us["persistent"],
        pe.get("tokens_per_s", 0) / 1e6,
        pe.get("kv_positions_in_shared", -1), pe.get("kv_positions_in_registers", -1), pe.get("warps_per_sequence", -1),
        "/".join("%.2f" % (100 * r[op].get("cv", 0)) for op in r)))
for op in ("per_launch", "cuda_graph", "persistent", None):
    cvs = [100 * m["cv"] for k, m in res.items() if (op is None or k[3] == op) and m["median_us"] * k[1] >= 100]
    if cvs:
        print("median CV (pass >= 100 us) %s: %.3f%% over %d" % (op or "all", statistics.median(cvs), len(cvs)))
