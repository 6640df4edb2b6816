"""Why the torch.graph arms of microbatch, mixedops and decode read wrong results (smoke run, 2026-11-27).

For each of the three, the graph arm's factory from perfgate_harness.torchref
is built with one way of capturing at a time (torchref._graphed replaced by a
candidate below), called twice, and compared with its *_expected factory; it
prints how many elements are wrong, so one call on the GPU says which way of
capturing gives the right answer.

    python3 graphcheck.py [--fix] [CANDIDATE ...]

With --fix, when torchref's own capture is wrong and a candidate is right in
every case, torchref.py's _graphed is rewritten as the first such candidate
(its source, renamed), so that what runs next is what gets committed.
"""
import inspect
import os
import re
import sys

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "pyharness")
sys.path.insert(0, HARNESS)
import torch  # noqa: E402
from perfgate_harness import torchref  # noqa: E402

CASES = [("microbatch", dict(n="4K", ops=10000), 1e-4), ("mixedops", dict(n="64K", iters=1000), 1e-3),
         ("decode", dict(dtype=torch.float16, b=8, h=8, d=128, l=128), 0.02)]


def warm_only(torch, run):
    """Return run's result after one eager call, with no graph (is the eager result right here?)."""
    res = run()
    return lambda: res


def thread_local(torch, run):
    """Capture run's launches once into a torch.cuda.CUDAGraph on a stream of its own (after a warm call there
    and a full synchronise, as torch asks), in thread-local capture mode, and return a callable that replays
    it and returns what run returned."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        run()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s, capture_error_mode="thread_local"):
        res = run()
    torch.cuda.synchronize()

    def replay():
        g.replay()
        return res
    return replay


def sync_each(torch, run):
    """Capture run's launches once into a torch.cuda.CUDAGraph (after a warm call on a side stream, as torch
    asks) and return a callable that replays it, waits for it, and returns what run returned."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        run()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        res = run()

    def replay():
        g.replay()
        torch.cuda.current_stream().synchronize()
        return res
    return replay


CANDIDATES = {"torchref": torchref._graphed, "warm-only": warm_only, "thread-local": thread_local, "sync-each": sync_each}
FIXES = ["thread-local", "sync-each"]


def wrong(got, want, tol):
    g, w = got.double().reshape(-1), want.double().reshape(-1)
    bad = (g - w).abs() > tol + tol * w.abs()
    nb = int(bad.sum())
    first = "" if not nb else " (first at %d: %g, want %g)" % (int(bad.nonzero()[0]), float(g[bad][0]), float(w[bad][0]))
    return nb, "%d of %d%s" % (nb, g.numel(), first)


def main(argv):
    fix = "--fix" in argv
    names = [a for a in argv if a != "--fix"] or list(CANDIDATES)
    print("CUDA_DEVICE_MAX_CONNECTIONS =", os.environ.get("CUDA_DEVICE_MAX_CONNECTIONS"), "torch", torch.__version__, flush=True)
    ok = {n: True for n in names}
    original = torchref._graphed
    for name, kw, tol in CASES:
        want = getattr(torchref, name + "_expected")(**kw)()
        for n in names:
            torchref._graphed = CANDIDATES[n]
            try:
                fn = getattr(torchref, name)(variant="graph", **kw)
                nb1, first = wrong(fn(), want, tol)
                torch.cuda.synchronize()
                nb2, second = wrong(fn(), want, tol)
                ok[n] = ok[n] and nb1 == 0 and nb2 == 0
                print("%-10s %-13s wrong %s; second call %s" % (name, n, first, second), flush=True)
            except Exception as e:  # noqa: BLE001
                ok[n] = False
                print("%-10s %-13s raised %s: %s" % (name, n, type(e).__name__, str(e).splitlines()[0][:200]), flush=True)
            finally:
                torchref._graphed = original
            torch.cuda.empty_cache()
    print("right in every case:", [n for n in names if ok[n]], flush=True)
    if fix and not ok.get("torchref", True):
        good = [n for n in FIXES if ok.get(n)]
        if good:
            path = os.path.join(HARNESS, "perfgate_harness", "torchref.py")
            src = open(path).read()
            new = re.sub(r"^def \w+\(torch, run\):", "def _graphed(torch, run):", inspect.getsource(CANDIDATES[good[0]]), count=1)
            start = src.index("def _graphed(torch, run):")
            end = src.find("\n\n\n", start)
            end = len(src) if end < 0 else end + 1
            open(path, "w").write(src[:start] + new.rstrip("\n") + "\n" + src[end:])
            print("torchref.py: _graphed is now", good[0], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
