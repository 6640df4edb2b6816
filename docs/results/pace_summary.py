"""CV of the benchmarks >= 100 µs in perfgate results files, one file per process.

usage: pace_summary.py LABEL=RESULTS.json [LABEL=RESULTS.json ...]

Prints, per file, the median and worst CV of the benchmarks whose median is
>= 100 µs, by mode, then one row per benchmark: CV, median, the SM clock,
clock drops, throttled samples retaken and kept, the final pacing ratio and
why sampling stopped (docs/gpu.md, "Noise").
"""
import json
import statistics
import sys


def main():
    files = [a.split("=", 1) for a in sys.argv[1:]]
    rows = {}
    print("| process | mode | benchmarks >= 100 µs | median CV | worst CV | with throttle reasons |")
    print("|---|---|---|---|---|---|")
    for label, path in files:
        try:
            bs = json.load(open(path))["benchmarks"]
        except Exception as e:  # a missing run is reported, not fatal
            print(f"| {label} | – | missing: {e} |")
            continue
        for mode in ("cold", "batch"):
            sel = [b for b in bs if not b.get("error") and b["params"].get("mode") == mode and b["metrics"].get("median_us", 0) >= 100]
            if not sel:
                continue
            cvs = [100 * b["metrics"]["cv"] for b in sel]
            thr = sum(1 for b in sel if b["info"].get("clock_event_reasons"))
            print(f"| {label} | {mode} | {len(sel)} | {statistics.median(cvs):.2f}% | {max(cvs):.2f}% | {thr} |")
            for b in sel:
                rows.setdefault(b["name"], {})[label] = b
    print()
    print("| benchmark | " + " | ".join(l for l, _ in files) + " |")
    print("|---|" + "---|" * len(files))
    for name, by in rows.items():
        cells = []
        for label, _ in files:
            b = by.get(label)
            if b is None:
                cells.append("–")
                continue
            m = b["metrics"]
            cells.append(f"{100*m['cv']:.2f}% {m['median_us']:.1f}µs {m.get('sm_clock_mhz', 0):.0f}MHz "
                         f"d{m.get('clock_drops', 0):.0f} r{m.get('throttled_retaken', 0):.0f} k{m.get('throttled_kept', 0):.0f} "
                         f"p{m.get('pace_ratio', 0):g} n{len(b['samples'])} [{b['info'].get('stop', '')[:22]}; {b['info'].get('took', '')}]")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
