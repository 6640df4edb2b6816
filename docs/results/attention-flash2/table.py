"""The flash2 comparison's table: perfgate's tiled kernel (each binary) over PyTorch's SDPA, per prefill shape.

table.py SDPA_JSONL NAME=results.json ...: medians (µs) and, per binary, the
ratio SDPA(default)/tiled (≥ 1: tiled is faster) in both modes, with TF/s.
"""
import json
import re
import sys


def key(b, h, s, d, dtype, causal, mode):
    return (b, h, s, d, dtype, causal, mode)


def main():
    sdpa = {}
    for line in open(sys.argv[1]):
        r = json.loads(line)
        for mode in ("cold", "batch"):
            if mode + "_us" in r:
                sdpa[(r["backend"],) + key(r["b"], r["h"], r["s"], r["d"], r["dtype"], r["causal"], mode)] = r[mode + "_us"]
    runs = []
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        res = {}
        for bm in json.load(open(path))["benchmarks"]:
            m = re.search(r"tiled/dtype=(\w+)/b=(\d+)/h=(\d+)/(?:hkv=\d+/)?s=(\d+)/d=(\d+)/causal=(\w+)/mode=(\w+)", bm["name"])
            if not m or bm.get("error"):
                continue
            dt, b, h, s, d, c, mode = m.groups()
            res[key(int(b), int(h), int(s), int(d), dt, c == "true", mode)] = (bm["metrics"]["median_us"], bm["metrics"].get("tflops"))
        runs.append((name, res))
    hdr = "| shape | dtype | causal | mode | SDPA default | flash | cudnn | " + " | ".join(
        "%s µs | %s TF/s | SDPA/%s" % (n, n, n) for n, _ in runs) + " |"
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for k in sorted({k for _, r in runs for k in r}):
        b, h, s, d, dt, c, mode = k
        row = ["%d,%d,%d,%d" % (b, h, s, d), dt, str(c).lower(), mode]
        dflt = sdpa.get(("default",) + k)
        row += ["%.1f" % sdpa[(be,) + k] if (be,) + k in sdpa else "-" for be in ("default", "flash", "cudnn")]
        for _, r in runs:
            if k in r:
                us, tf = r[k]
                row += ["%.1f" % us, "%.0f" % tf if tf else "-", "%.3f" % (dflt / us) if dflt else "-"]
            else:
                row += ["-", "-", "-"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
