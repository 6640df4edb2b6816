"""Why the Python and Go harnesses differ at 1M elements: the suspects of docs/python.md, "Agreement with the Go harness", one at a time.

usage: agreement.py OUT [GO_CACHE]       (device.sh runs it after the Go and Python runs)
       agreement.py --draw OUT.json      (one process's share of the draws; agreement.py runs it)

In one process, with the Python harness's default rule, batch mode (and cold
for the suite's own setup), interleaved in two rounds so that drift shows:
  suite        the python suite's work: gokernels.py (Go's PTX, fills, grid) on torch's buffers and stream
  cumemalloc   the buffers from cuMemAlloc, one allocation each, as the Go harness's
  nonblocking  timed on a non-blocking stream (torch.cuda.Stream()), as the Go harness's session stream
  torchvalues  inputs from torch.rand ([0, 1), the first GPU run's) instead of Go's random stream
Then the same PTX check as the Go harness's cache (GO_CACHE/ptx/*.ptx, comments
stripped), and the work measured in 4 processes (the Go harness measures a cold
launch under 5 µs warm in 4 CUDA contexts; a torch process has one), each
process's medians and the pooled medians. Writes OUT/agreement.json and prints
the tables (device.sh keeps them in OUT/agreement.txt).
"""

import ctypes
import glob
import json
import os
import statistics
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "pyharness"))

import gokernels as gk  # noqa: E402
from perfgate_harness import bench  # noqa: E402
from perfgate_harness.sampling import rules_for  # noqa: E402

N = 1 << 20
WORKS = [("add/n=1048576", lambda **kw: gk.add(N, **kw)),
         ("saxpy/n=1048576/unroll=1", lambda **kw: gk.saxpy(N, 1, **kw)),
         ("saxpy/n=1048576/unroll=4", lambda **kw: gk.saxpy(N, 4, **kw))]
DRAW_WORKS = WORKS + [("add/n=4096", lambda **kw: gk.add(4096, **kw))]
DRAWS = 4


class DevBuf:
    """A DevBuf is n floats from cuMemAlloc, with the two methods gokernels uses of a tensor."""

    _live = []

    def __init__(self, n):
        self.n, self.ptr = n, ctypes.c_void_p()
        gk._check(gk._cuda.cuMemAlloc_v2(ctypes.byref(self.ptr), ctypes.c_size_t(4 * n)), "cuMemAlloc")
        DevBuf._live.append(self)  # freed at exit: the callables keep raw pointers

    def data_ptr(self):
        return self.ptr.value

    def numel(self):
        return self.n


def torch_values(make):
    """Build the work, then refill its inputs with torch.rand, as the first GPU run's factories did."""
    fn = make()
    for t in fn.keep[:-1]:
        if isinstance(t, torch.Tensor):
            t.copy_(torch.rand(t.numel(), device="cuda"))
    return fn


VARIANTS = [
    ("suite", lambda make: make(), None),
    ("cumemalloc", lambda make: make(alloc=lambda: DevBuf(N)), None),
    ("nonblocking", lambda make: make(), "nonblocking"),
    ("torchvalues", torch_values, None),
]


def median_us(fn, mode, stream=None):
    if stream is None:
        m = bench.measure(fn, mode, rules_for())
    else:
        with torch.cuda.stream(stream):
            m = bench.measure(fn, mode, rules_for())
    return statistics.median(m.samples), m


def go_medians(out):
    go = {}
    for name in ("go-add.json", "go-saxpy.json"):
        try:
            doc = json.load(open(os.path.join(out, name)))
        except (OSError, ValueError):
            continue
        for b in doc["benchmarks"]:
            if b.get("error"):
                continue
            key = b["name"].replace("/dtype=fp32", "").replace("n=1M", "n=1048576").replace("n=4K", "n=4096")
            go[key] = b["metrics"]["median_us"]
    return go


def variants(report):
    side = torch.cuda.Stream()
    rows = {}
    for rnd in (1, 2):
        for vname, build, stream in VARIANTS:
            for wname, make in WORKS:
                fn = build(make)
                for mode in ("batch", "cold") if vname == "suite" else ("batch",):
                    med, m = median_us(fn, mode, side if stream else None)
                    rows.setdefault((wname, mode, vname), []).append(med)
                    report["variants"].append({"work": wname, "mode": mode, "variant": vname, "round": rnd, "median_us": med,
                                               "batch_n": m.batch_n, "timing": m.timing, "samples": len(m.samples),
                                               "sm_clock_mhz": statistics.median([c for c in m.clocks if c > 0] or [0])})
                del fn
                torch.cuda.synchronize()
    return rows


def ptx_check(go_cache, report):
    go = {}
    for f in glob.glob(os.path.join(go_cache or "", "ptx", "*.ptx")):
        go[gk.ptx_digest(open(f, "rb").read())] = os.path.basename(f)
    for (file, opts), ptx in sorted(gk.PTX.items()):
        d = gk.ptx_digest(ptx)
        report["ptx"].append({"file": file, "options": list(opts), "sha256": d, "go_cache_file": go.get(d, ""),
                              "go_cache_files": len(go)})


def one_draw(path):
    out = {}
    for wname, make in DRAW_WORKS:
        fn = make()
        for mode in ("cold", "batch"):
            _, m = median_us(fn, mode)
            out["%s/mode=%s" % (wname, mode)] = m.samples
    json.dump(out, open(path, "w"))


def draws(out, report):
    per = []
    for i in range(DRAWS):
        path = os.path.join(out, "agreement-draw-%d.json" % i)
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--draw", path], capture_output=True, text=True)
        if p.returncode != 0:
            report["draw_errors"].append(p.stderr[-2000:])
            continue
        per.append(json.load(open(path)))
        os.remove(path)
    for key in sorted(per[0]) if per else []:
        meds = [statistics.median(d[key]) for d in per]
        pooled = statistics.median([v for d in per for v in d[key]])
        report["draws"].append({"benchmark": key, "process_medians_us": meds, "pooled_median_us": pooled})


def main(out, go_cache):
    report = {"torch": torch.__version__, "nvrtc": gk.nvrtc_version(), "gpu": torch.cuda.get_device_name(),
              "variants": [], "ptx": [], "draws": [], "draw_errors": []}
    go = go_medians(out)
    rows = variants(report)
    ptx_check(go_cache, report)
    draws(out, report)
    json.dump(report, open(os.path.join(out, "agreement.json"), "w"), indent=1)

    print("%s, torch %s, libnvrtc %s (Python side)" % (report["gpu"], report["torch"], report["nvrtc"]))
    print("\n1M elements, one process, the Python harness's medians (µs) in two rounds, over the Go harness's:")
    print("%-28s %6s %-12s %18s %9s %8s" % ("work", "mode", "variant", "round 1, round 2", "Go µs", "Py/Go"))
    for (w, mode, v), meds in sorted(rows.items()):
        g = go.get("%s/mode=%s" % (w, mode))
        ratio = "%8.3f" % (statistics.mean(meds) / g) if g else "%8s" % "-"
        print("%-28s %6s %-12s %8.3f, %8.3f %9s %s" % (w, mode, v, meds[0], meds[-1], "%.3f" % g if g else "-", ratio))
    print("\nPTX compiled here vs the Go harness's PTX cache (comments and blank lines stripped):")
    for p in report["ptx"]:
        same = "same as Go's %s" % p["go_cache_file"] if p["go_cache_file"] else "NOT in the Go cache (%d files)" % p["go_cache_files"]
        print("  %-16s %-48s %s" % (p["file"], " ".join(p["options"]), same))
    print("\n%d processes (the Go harness: 4 contexts for a cold launch under 5 µs warm), medians (µs):" % DRAWS)
    for d in report["draws"]:
        key = d["benchmark"]
        g = go.get(key)
        meds = ", ".join("%.3f" % v for v in d["process_medians_us"])
        spread = (max(d["process_medians_us"]) / min(d["process_medians_us"]) - 1) * 100
        print("  %-40s %s  pooled %.3f  spread %.1f%%  Go %s" % (key, meds, d["pooled_median_us"], spread,
                                                              "%.3f (Py/Go %.3f)" % (g, d["pooled_median_us"] / g) if g else "-"))
    for e in report["draw_errors"]:
        print("a draw failed:\n" + e)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--draw":
        one_draw(sys.argv[2])
    elif len(sys.argv) in (2, 3):
        main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "")
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
