"""triton.testing.do_bench and perfgate_harness.do_bench on the device script's kernels.

Writes {name: {"triton_ms": ..., "harness_cold_ms": ..., "harness_batch_ms": ...}} for the Go harness's add_fp32 and saxpy (gokernels.py).
"""

import json
import os
import sys

import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "pyharness"))

import gokernels  # noqa: E402
from perfgate_harness import do_bench  # noqa: E402


def triton_ms(fn):
    try:
        return triton.testing.do_bench(fn, return_mode="median")
    except TypeError:  # an older Triton without return_mode
        return triton.testing.do_bench(fn, quantiles=[0.5])


out = {}
cases = [("add/n=%d" % n, gokernels.add(n)) for n in (4096, 1 << 20, 1 << 24)]
cases += [("saxpy/n=%d/unroll=%d" % (n, u), gokernels.saxpy(n, u)) for u in (1, 4) for n in (1 << 20, 1 << 24, 1 << 26)]
for name, fn in cases:
    out[name] = {"triton_ms": triton_ms(fn), "harness_cold_ms": do_bench(fn), "harness_batch_ms": do_bench(fn, mode="batch")}
    print(name, out[name], flush=True)
json.dump(out, open(sys.argv[1], "w"), indent=1)
