"""The last table of device.sh: Go harness vs Python harness vs do_bench, and the slowed example's verdicts.

usage: table.py DIR   (reads DIR/go-add.json, go-saxpy.json, py.json, dobench.json, examples-compare.json)
"""

import json
import os
import sys

out = sys.argv[1]


def load(name):
    try:
        return json.load(open(os.path.join(out, name)))
    except (OSError, ValueError) as e:
        print("(%s: %s)" % (name, e))
        return None


def medians(doc):
    if not doc:
        return {}
    return {b["name"]: b["metrics"]["median_us"] for b in doc["benchmarks"] if not b.get("error")}


LABEL = {"4K": 4096, "1M": 1 << 20, "16M": 1 << 24}
go = {}
for name, v in medians(load("go-add.json")).items():  # add/dtype=fp32/n=16M/mode=cold
    op, dt, n, mode = name.split("/")
    go["add/n=%d/%s" % (LABEL.get(n[2:], 0), mode)] = v
for name, v in medians(load("go-saxpy.json")).items():  # saxpy/n=…/unroll=…/mode=…
    go[name] = v
py = {}
for name, v in medians(load("py.json")).items():
    parts = [p for p in name.split("/") if not p.startswith("dtype=")]
    py["/".join(parts)] = v
db = load("dobench.json") or {}

print("Python µs: the same PTX, grid and inputs as the Go harness's (gokernels.py); torch.add µs: torch's own kernel")
print("%-32s %6s %10s %10s %7s %5s %12s %12s %12s" % ("work", "mode", "Go µs", "Python µs", "Py/Go", "≤2%", "torch.add µs",
                                                      "do_bench µs", "harness.do_bench"))
within = total = 0
for key in sorted(go, key=lambda k: (k.split("/")[0], k)):
    if key not in py:
        continue
    work, mode = key.rsplit("/mode=", 1)
    r = py[key] / go[key]
    ok = abs(r - 1) <= 0.02
    within += ok
    total += 1
    d = db.get(work, {})
    trit = "%12.3f" % (d["triton_ms"] * 1e3) if mode == "cold" and "triton_ms" in d else "%12s" % "-"
    hd = d.get("harness_%s_ms" % mode)
    hds = "%12.3f" % (hd * 1e3) if hd else "%12s" % "-"
    ta = py.get("torch_" + key)
    tas = "%12.3f" % ta if ta else "%12s" % "-"
    print("%-32s %6s %10.3f %10.3f %7.3f %5s %s %s %s" % (work, mode, go[key], py[key], r, "yes" if ok else "NO", tas, trit, hds))
print("Python within 2%% of Go (median): %d of %d" % (within, total))

cmp = load("examples-compare.json")
if cmp:
    verdicts = {}
    for b in cmp["benchmarks"]:
        verdicts.setdefault(b["verdict"], []).append(b["suite"] + "/" + b["name"])
    print("examples/python, SLOW_TRITON_ADD=1 vs base: " + cmp.get("verdict_line", ""))
    for v, names in sorted(verdicts.items()):
        print("  %-12s %2d  %s" % (v, len(names), ", ".join(sorted(names)[:6]) + (" …" if len(names) > 6 else "")))
