"""perfgate's Python harness: time PyTorch and Triton callables as perfgate's Go harness times CUDA kernels.

CUDA events, cold (L2 flushed) and batch modes, warm-up until the SM clock
settles, nvbench's adaptive stopping rule with perfgate's caps, per-sample SM
clocks from NVML, and results v1 with raw samples (docs/python.md).

    from perfgate_harness import do_bench      # instead of triton.testing.do_bench
    ms = do_bench(lambda: torch.add(a, b))

The pure modules (sampling, pace, loop, results, check's tolerances) import
no torch; bench (measure, bench, do_bench) and cuda need it and are
imported on first use.
"""


def do_bench(fn, mode="cold", size="", fast=False, max_time_s=0):
    """Return fn's median time in ms by perfgate's rules (see bench.do_bench)."""
    from .bench import do_bench as run
    return run(fn, mode=mode, size=size, fast=fast, max_time_s=max_time_s)

