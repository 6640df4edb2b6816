"""Ratio table of perfgate's attention suite against PyTorch, from one device call.

usage: attention_table.py PERFGATE_RESULTS.json TORCH.jsonl [MODE [TORCH_MODE]]

For every shape, dtype and mask: perfgate tiled vs PyTorch flash SDPA, and
perfgate naive vs PyTorch's unfused sequence, median µs: perfgate's MODE
(cold or batch; default cold) against PyTorch's TORCH_MODE (cold, batch or
graph; default the same as MODE). "flash/tiled" is PyTorch's time over
perfgate's: tiled's speed as a fraction of flash's (≥ 0.5 is the aim at
(8,16,2048,128) fp16). "naive/unfused" is perfgate's time over PyTorch's
(≤ 1.2 is the aim).
"""
import json
import sys


def main():
    res, torch_file = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else "cold"
    tmode = sys.argv[4] if len(sys.argv) > 4 else mode
    pg = {}
    for b in json.load(open(res))["benchmarks"]:
        if b["suite"] != "attention" or b.get("error"):
            continue
        p = b["params"]
        key = (int(p["b"]), int(p["h"]), int(p.get("hkv", p["h"])), int(p["s"]), int(p["d"]), p["dtype"], p["causal"] == "true", p["mode"])
        pg[(b["name"].split("/")[0],) + key] = b["metrics"]
    th = {}
    for line in open(torch_file):
        r = json.loads(line)
        if r["mode"] == tmode:
            th[(r["backend"], r["B"], r["H"], r.get("H_kv", r["H"]), r["S"], r["d"], r["precision"], r["causal"], mode)] = r
    print(f"perfgate mode={mode}, PyTorch mode={tmode}; times are medians in µs; TF/s counts the causal half only")
    print()
    print("| B,H(,H_kv),S,d | dtype | causal | tiled | flash | flash/tiled | tiled TF/s | flash TF/s | naive | unfused | naive/unfused | tiled vs naive |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in sorted({k[1:] for k in pg}, key=lambda k: (k[3] * k[4], k[0] * k[1], k[2], k[5], k[6])):
        if k[-1] != mode:
            continue
        t, n = pg.get(("tiled",) + k), pg.get(("naive",) + k)
        f, u = th.get(("flash",) + k), th.get(("unfused",) + k)
        cell = lambda x, f="{:.1f}": f.format(x) if x is not None else "–"
        tm = t and t["median_us"]
        nm = n and n["median_us"]
        fm = f and f["median_us"]
        um = u and u["median_us"]
        shape = f"{k[0]},{k[1]},{k[2]},{k[3]},{k[4]}" if k[2] != k[1] else f"{k[0]},{k[1]},{k[3]},{k[4]}"
        print(f"| {shape} | {k[5]} | {k[6]} | {cell(tm)} | {cell(fm)} | "
              f"{cell(fm / tm if tm and fm else None, '{:.2f}')} | {cell(t and t.get('tflops'))} | {cell(f and f.get('tflops'))} | "
              f"{cell(nm)} | {cell(um)} | {cell(nm / um if nm and um else None, '{:.2f}')} | "
              f"{cell(t and t.get('speedup_vs_naive'), '{:.2f}×')} |")


if __name__ == "__main__":
    main()
