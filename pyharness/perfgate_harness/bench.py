"""Timing a callable: measure() for one mode, bench() for results-v1 entries, do_bench() for Triton's users."""

from . import results
from .cuda import TorchTimer, open_monitor
from .loop import MODE_BATCH, MODE_COLD, BlockTimeout, Loop, captured_limit, held_limit
from .sampling import S, draws_for, rules_for

MODES = (MODE_COLD, MODE_BATCH)
_monitor = []


def monitor():
    """Return the process's SM clock monitor (NVML when it loads), opened once."""
    if not _monitor:
        _monitor.append(open_monitor()[0])
    return _monitor[0]


def measure(fn, mode=MODE_COLD, rule=None, graph=True, spread=False, ops=1, launches=1):
    """Time fn, a callable of no arguments that queues GPU work, in mode; return a loop.Measurement.

    cold: one call a sample after an L2 flush; batch: N calls a sample, N
    chosen so a sample lasts about 1 ms. Samples are µs per op: a call is
    ops operations (1: per call), made of launches kernel launches, which
    bound how many calls one sample may hold (loop.captured_limit,
    held_limit) and, above 1, record the as-issued time per op (as the Go
    harness does for a sequence). graph=False times stream launches (work
    that is about launches: a PyTorch eager loop, a graph it replays
    itself). spread: a benchmark that sampling.draws_for says is
    draw-sensitive takes one draw's share of rule, and m.draws says how
    many draws it needs (the caller takes the others in processes of their
    own: runspec.py).
    """
    timer = TorchTimer(fn, graph=graph)
    timer.probe()
    limit = captured_limit(launches) if timer.use_graph else held_limit(launches)
    rule = rule or rules_for()

    def loop():
        draws = (lambda per_op: draws_for(False, mode, not timer.use_graph, per_op)) if spread else None
        return Loop(timer, monitor(), draws=draws)
    try:
        m = loop().measure(mode, ops, limit, launches > 1, rule)
    except BlockTimeout as e:
        if timer.use_graph or timer.as_issued:
            raise
        # Stream launches that only sometimes wait for the GPU (a sync every
        # few calls) pass the probe and run the block out in the loop.
        timer.time_as_issued("the block kept running out in the loop (%s)" % e)
        m = loop().measure(mode, ops, limit, launches > 1, rule)
    m.timing = timer.timing
    return m


def bench(fn, suite, op, params=None, modes=MODES, rule=None, bytes_=0.0, flops=0.0, reference="", pending=None, how=None):
    """Measure fn in each mode and return results-v1 benchmarks named op/params/mode=…

    how holds measure's keyword arguments graph, ops and launches (none: a
    call is one op, captured when it can be).
    reference is the in-run reference's op (its benchmarks are suite/reference/…
    with the same params); the speedup metric is added by results.add_ref_speedups.
    With a list pending, draw-sensitive benchmarks are measured as the first
    of their draws: each gets an entry {"b", "m", "mode", "args"} in pending,
    and its benchmark is replaced in place once the draws are pooled.
    """
    params = {str(k): str(v) for k, v in (params or {}).items()}
    out = []
    for mode in modes:
        ref = suite + "/" + results.benchmark_name(reference, params, mode) if reference else ""
        try:
            m = measure(fn, mode, rule, spread=pending is not None, **(how or {}))
        except Exception as e:  # noqa: BLE001 - a failing benchmark is an error benchmark, the run goes on
            out.append(results.error_benchmark(suite, op, params, mode, e))
            continue
        out.append(results.to_benchmark(suite, op, params, m, bytes_, flops, reference=ref))
        if m.draws > 1 and pending is not None:
            pending.append({"b": out[-1], "m": m, "mode": mode, "args": (suite, op, params, bytes_, flops, ref)})
    return out


def do_bench(fn, mode=MODE_COLD, size="", fast=False, max_time_s=0):
    """Return fn's median time in ms, measured by perfgate's rules: a stand-in for triton.testing.do_bench.

    Triton's do_bench flushes the L2 and times each call; so does the
    default cold mode. Use mode="batch" for back-to-back calls.
    """
    m = measure(fn, mode, rules_for(size=size, fast=fast, max_time=int(max_time_s * S)))
    b = results.to_benchmark("do_bench", "fn", {}, m)
    if b.get("error"):
        raise RuntimeError(b["error"])
    return b["metrics"]["median_us"] / 1e3
