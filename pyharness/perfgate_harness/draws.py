"""Pooling a benchmark's draws (kernels/measure/draws.go's drawn): the samples of several processes, one benchmark.

A cold launch of a few microseconds, and work timed as stream launches, sit
at a level fixed per CUDA context (docs/gpu.md, "Between processes"). The Go
harness measures such a benchmark in 4 contexts of its process; a torch
process has one context, so the Python harness measures the other draws in
processes of their own (runspec.py) and pools them here. Pure: no torch.
"""

import math

from .sampling import median


class Drawn:
    """A Drawn pools the draws' loop.Measurements of one benchmark."""

    def __init__(self):
        self.m = None
        self.medians = []  # each draw's median sample (µs)
        self.stops = []

    def add(self, m):
        """Pool one draw's measurement (the first one's mode, timing and batch size stand)."""
        if self.m is None:
            self.m = m
            m.samples, m.clocks, m.throttle = list(m.samples), list(m.clocks), list(m.throttle)
        else:
            self.m.samples.extend(m.samples)
            self.m.clocks.extend(m.clocks)
            self.m.throttle.extend(r for r in m.throttle if r not in self.m.throttle)
            self.m.warmup += m.warmup
            self.m.block_timeouts += m.block_timeouts
        self.medians.append(median(m.samples))
        self.stops.append(m.stop)

    def measurement(self):
        """Return the pooled measurement; its stop names the draws."""
        if len(self.medians) > 1:
            self.m.stop = "%d processes, each %s" % (len(self.medians), self.stops[-1])
        return self.m

    def spread_pct(self):
        """Return the standard deviation of the draws' log medians in percent (NaN below 2 draws)."""
        if len(self.medians) < 2 or any(not v > 0 for v in self.medians):
            return math.nan
        logs = [math.log(v) for v in self.medians]
        mean = sum(logs) / len(logs)
        return 100 * math.sqrt(sum((v - mean) ** 2 for v in logs) / (len(logs) - 1))

    def record(self, metrics):
        """Write how many draws the samples came from, and how far apart their medians were, into metrics."""
        metrics["draws"] = float(max(len(self.medians), 1))
        s = self.spread_pct()
        if not math.isnan(s):
            metrics["draw_spread_pct"] = math.floor(s * 1000 + 0.5) / 1000  # Go's math.Round


_FIELDS = ("samples", "clocks", "stop", "batch_n", "warmup", "block_timeouts", "throttle", "timing")


def measurement_dict(m):
    """Return what a draw process hands back of a loop.Measurement (JSON)."""
    return {f: getattr(m, f) for f in _FIELDS}


def measurement_from(d, mode):
    """Return the loop.Measurement of a draw process's measurement_dict."""
    from .loop import Measurement
    m = Measurement(mode, int(d["batch_n"]), int(d["warmup"]), "")
    m.samples = [float(v) for v in d["samples"]]
    m.clocks = [float(v) for v in d["clocks"]]
    m.stop, m.block_timeouts, m.timing = str(d["stop"]), int(d["block_timeouts"]), str(d["timing"])
    m.throttle = [str(r) for r in d["throttle"]]
    return m
