"""Why the torch.graph arms of microbatch, mixedops and decode read wrong results (smoke run, 2026-11-27).

For each of the three, the graph arm's factory from perfgate_harness.torchref
is built with one way of capturing at a time (torchref._graphed replaced by a
variant below), called once, and compared with its *_expected factory; it
prints how many elements are wrong, so one call on the GPU says which way of
capturing gives the right answer. Run it with CUDA_DEVICE_MAX_CONNECTIONS
unset and =1 (the Python harness sets 1).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "pyharness"))
import torch  # noqa: E402
from perfgate_harness import torchref  # noqa: E402

CASES = [("microbatch", dict(n="4K", ops=10000), 1e-4), ("mixedops", dict(n="64K", iters=1000), 1e-3),
         ("decode", dict(dtype="fp16", b=8, h=8, d=128, l=128), 0.02)]
ORIGINAL = torchref._graphed


def warm_only(torch_, run):
    """No capture: the warm-up call alone (is the eager result right here?)."""
    res = run()
    return lambda: res


def sync_each(torch_, run):
    """As torchref, then synchronise after every replay."""
    replay = ORIGINAL(torch_, run)

    def f():
        r = replay()
        torch_.cuda.synchronize()
        return r
    return f


def thread_local(torch_, run):
    """Capture with capture_error_mode="thread_local" on a stream of our own, after a full synchronise."""
    s = torch_.cuda.Stream()
    s.wait_stream(torch_.cuda.current_stream())
    with torch_.cuda.stream(s):
        run()
    torch_.cuda.synchronize()
    g = torch_.cuda.CUDAGraph()
    with torch_.cuda.graph(g, stream=s, capture_error_mode="thread_local"):
        res = run()
    torch_.cuda.synchronize()

    def f():
        g.replay()
        return res
    return f


def keep_all(torch_, run):
    """As torchref, keeping the graph, its result and the run closure referenced from the callable."""
    s = torch_.cuda.Stream()
    s.wait_stream(torch_.cuda.current_stream())
    with torch_.cuda.stream(s):
        run()
    torch_.cuda.current_stream().wait_stream(s)
    g = torch_.cuda.CUDAGraph()
    with torch_.cuda.graph(g):
        res = run()
    keep = [g, res, run]

    def f():
        keep[0].replay()
        return keep[1]
    return f


VARIANTS = {"torchref": ORIGINAL, "warm-only": warm_only, "sync-each": sync_each, "thread-local": thread_local, "keep-all": keep_all}


def wrong(got, want, tol):
    g, w = got.double().reshape(-1), want.double().reshape(-1)
    bad = (g - w).abs() > tol + tol * w.abs()
    nb = int(bad.sum())
    first = "" if not nb else " (first at %d: %g, want %g)" % (int(bad.nonzero()[0]), float(g[bad][0]), float(w[bad][0]))
    return "%d of %d%s" % (nb, g.numel(), first)


print("CUDA_DEVICE_MAX_CONNECTIONS =", os.environ.get("CUDA_DEVICE_MAX_CONNECTIONS"), "torch", torch.__version__, flush=True)
only = sys.argv[1:] or list(VARIANTS)
for name, kw, tol in CASES:
    want = getattr(torchref, name + "_expected")(**kw)()
    for v in only:
        torchref._graphed = VARIANTS[v]
        try:
            fn = getattr(torchref, name)(variant="graph", **kw)
            got = fn()
            torch.cuda.synchronize()
            again = fn()
            torch.cuda.synchronize()
            print("%-10s %-13s wrong %s; after a second call %s" % (name, v, wrong(got, want, tol), wrong(again, want, tol)), flush=True)
        except Exception as e:  # noqa: BLE001
            print("%-10s %-13s raised %s: %s" % (name, v, type(e).__name__, str(e).splitlines()[0][:200]), flush=True)
        torchref._graphed = ORIGINAL
