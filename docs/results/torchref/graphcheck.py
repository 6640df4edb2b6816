"""Why the torch.graph arms of microbatch, mixedops and decode read wrong results (the smoke run of 2026-11-27).

Runs each graph arm's factory from perfgate_harness.torchref, calls it once,
and compares with the *_expected factory, printing how many elements are
wrong; then again with variations: replayed twice, synchronised before the
first replay. Run it with CUDA_DEVICE_MAX_CONNECTIONS unset and =1.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "pyharness"))
import torch  # noqa: E402
from perfgate_harness import torchref  # noqa: E402

CASES = [("microbatch", dict(n="4K", ops=10000)), ("mixedops", dict(n="64K", iters=1000)),
         ("decode", dict(dtype="fp16", b=8, h=8, d=128, l=128))]


def wrong(got, want, tol):
    g, w = got.double().reshape(-1), want.double().reshape(-1)
    return int(((g - w).abs() > tol + tol * w.abs()).sum()), g.numel()


print("CUDA_DEVICE_MAX_CONNECTIONS =", os.environ.get("CUDA_DEVICE_MAX_CONNECTIONS"))
for name, kw in CASES:
    tol = 0.02 if name == "decode" else 1e-4
    want = getattr(torchref, name + "_expected")(**kw)()
    for how in ("as run", "sync first", "replay twice", "eager"):
        fn = getattr(torchref, name)(variant="eager" if how == "eager" else "graph", **kw)
        if how == "sync first":
            torch.cuda.synchronize()
        got = fn()
        if how == "replay twice":
            got = fn()
        torch.cuda.synchronize()
        print("%-10s %-12s wrong %d of %d" % (name, how, *wrong(got, want, tol)), flush=True)
