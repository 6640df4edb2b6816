"""triton.testing.do_bench and perfgate_harness.do_bench on the device script's kernels.

Writes {name: {"triton_ms": ..., "harness_ms": ...}} for torch.add fp32 and saxpy.
"""

import json
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "pyharness"))

import ops  # noqa: E402
import saxpy_nvrtc  # noqa: E402
from perfgate_harness import do_bench  # noqa: E402


def triton_ms(fn):
    try:
        return triton.testing.do_bench(fn, return_mode="median")
    except TypeError:  # an older Triton without return_mode
        return triton.testing.do_bench(fn, quantiles=[0.5])


out = {}
cases = [("add/n=%d" % n, ops.add(n, torch.float32)) for n in (4096, 1 << 20, 1 << 24)]
cases += [("saxpy/n=%d/unroll=%d" % (n, u), saxpy_nvrtc.saxpy(n, u)) for u in (1, 4) for n in (1 << 20, 1 << 24, 1 << 26)]
for name, fn in cases:
    out[name] = {"triton_ms": triton_ms(fn), "harness_cold_ms": do_bench(fn), "harness_batch_ms": do_bench(fn, mode="batch")}
    print(name, out[name], flush=True)
json.dump(out, open(sys.argv[1], "w"), indent=1)
