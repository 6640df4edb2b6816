"""The stopping rules and sample statistics of perfgate's Go harness, in Python.

This is a line-by-line port of kernels/measure/rule.go: the same constants, the
same rule (nvbench's: at least MinSamples samples and MinGPU of GPU time, then
stop once the relative standard deviation is at most TargetCV or has stopped
moving; never past MaxTime of wall time or MaxSamples samples), the same clock
filter and batch sizing. Times are integer nanoseconds, as Go's time.Duration,
so that integer divisions round the same way. It imports nothing but the
standard library, so its tests run without torch or a GPU.
"""

import math

NS = 1
US = 1000
MS = 1000 * US
S = 1000 * MS

SIZE_CI = "ci"

# The sample cap of the ci size (kernels.ciMaxSamples).
CI_MAX_SAMPLES = 40

# Stop reasons recorded in a benchmark's info["stop"].
STOP_CV = "rel-std"
STOP_STABLE = "rel-std-stable"
STOP_MAX_TIME = "max-time"
STOP_MAX_N = "max-samples"

# A sample taken below CLOCK_FLOOR of the run's median SM clock is dropped.
CLOCK_FLOOR = 0.9


class StopRule:
    """A StopRule decides when a benchmark has enough samples (kernels/measure's Rule).

    Durations are nanoseconds; target_cv 0.005 is 0.5%. The CV is stable when
    the CVs after each of the last samples (the last fifth, at least
    stable_window) stay within +-stable_spread of the middle of their range.
    """

    def __init__(self, min_samples=10, min_gpu=500 * MS, max_time=15 * S, max_samples=2000,
                 target_cv=0.005, stable_spread=0.02, stable_window=50, pace="", min_warmup=0):
        self.min_samples = min_samples
        self.min_gpu = min_gpu
        self.max_time = max_time
        self.max_samples = max_samples
        self.target_cv = target_cv
        self.stable_spread = stable_spread
        self.stable_window = stable_window
        self.pace = pace
        self.min_warmup = min_warmup  # ns; 0: loop.MIN_WARMUP

    def __repr__(self):
        return "StopRule(%r)" % self.__dict__

    def __eq__(self, other):
        return isinstance(other, StopRule) and self.__dict__ == other.__dict__

    def per_draw(self, k):
        """Return the rule of one of k draws (draws.go's perDraw): the budgets shared out, at least 3 samples a draw."""
        if k <= 1:
            return self
        d = StopRule(**self.__dict__)
        d.min_samples = max(3, _ceil_div(self.min_samples, k))
        d.max_samples = max(d.min_samples, _ceil_div(self.max_samples, k))
        d.min_gpu = self.min_gpu // k
        d.max_time = self.max_time // k
        d.stable_window = max(3, _ceil_div(self.stable_window, k))
        d.min_warmup = (self.min_warmup or MIN_WARMUP) // k
        return d


def _ceil_div(a, b):
    return (a + b - 1) // b


# The warm-up's minimum (kernels.minWarmup; loop.py's MIN_WARMUP is this).
MIN_WARMUP = 25 * MS

# Draws (kernels/measure/draws.go): a cold launch of a few microseconds, and work
# timed as stream launches, sit at a level fixed per CUDA context for the
# context's life. The Go harness measures such a benchmark in CONTEXT_DRAWS
# contexts of one process; a torch process has one context, so the Python
# harness takes the draws in processes of their own (runspec.py).
CONTEXT_DRAWS = 4
DRAW_BELOW = 5 * US


def draws_for(fast, mode, stream, per_op):
    """Return how many draws a benchmark in mode is spread over (kernels/measure's DrawsFor).

    stream: timed as stream launches (not replayed from a graph); per_op: the
    warm GPU time of one op in ns. Fast runs are one draw.
    """
    if fast:
        return 1
    if stream or (mode == "cold" and per_op < DRAW_BELOW):
        return CONTEXT_DRAWS
    return 1


def rules_for(size="", fast=False, max_time=0, pace=""):
    """Return the stop rule of perfgate run's options (kernels/suite's RulesFor).

    nvbench's defaults (10 samples, 0.5 s, 0.5%, 15 s); at size ci the caps
    are 5 s and 40 samples; fast lowers the budgets; max_time (ns) > 0
    overrides the wall-time cap.
    """
    r = StopRule()
    if size == SIZE_CI:
        r.min_gpu, r.max_time, r.max_samples, r.stable_window = 100 * MS, 5 * S, CI_MAX_SAMPLES, 20
    if fast:
        r.min_gpu, r.max_time, r.max_samples, r.stable_window = 50 * MS, 1 * S, min(r.max_samples, 500), 20
    if max_time > 0:
        r.max_time = max_time
    r.pace = pace
    return r


class Sampler:
    """A Sampler accumulates samples and says when to stop.

    It keeps a running mean and variance (Welford), as the Go sampler does,
    so its CVs are the Go harness's to the last bit.
    """

    def __init__(self, rule):
        self.rule = rule
        self.samples = []
        self.gpu = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.cvs = []

    def add(self, v, gpu):
        """Record one sample v that took gpu nanoseconds on the device."""
        self.samples.append(v)
        self.gpu += gpu
        d = v - self.mean
        self.mean += d / len(self.samples)
        self.m2 += d * (v - self.mean)
        if len(self.samples) >= self.rule.min_samples:
            self.cvs.append(self.cv())

    def cv(self):
        """Return the relative standard deviation so far (inf below 2 samples)."""
        n = len(self.samples)
        if n < 2 or self.mean == 0:
            return math.inf
        return math.sqrt(self.m2 / (n - 1)) / abs(self.mean)

    def done(self, elapsed):
        """Return (stop, reason) after elapsed nanoseconds of wall time."""
        n, r = len(self.samples), self.rule
        if elapsed >= r.max_time:
            return True, STOP_MAX_TIME
        if n >= r.max_samples:
            return True, STOP_MAX_N
        if n < r.min_samples or self.gpu < r.min_gpu:
            return False, ""
        if self.cv() <= r.target_cv:
            return True, STOP_CV
        if self.stable():
            return True, STOP_STABLE
        return False, ""

    def stable(self):
        """Report whether the recent CVs have stopped moving."""
        w = max(self.rule.stable_window, len(self.samples) // 5)
        if len(self.cvs) < w:
            return False
        recent = self.cvs[-w:]
        lo, hi = min(recent), max(recent)
        mid = (lo + hi) / 2
        return mid > 0 and (hi - lo) / 2 <= self.rule.stable_spread * mid


def go_duration(ns):
    """Format nanoseconds as Go's time.Duration.String does (15s, 1.5s, 25ms, 1m30s)."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    ns = abs(int(ns))
    if ns < S:
        for unit, size in (("ms", MS), ("µs", US)):
            if ns >= size:
                return sign + _trim(ns, size) + unit
        return sign + "%dns" % ns
    h, rest = divmod(ns, 3600 * S)
    m, rest = divmod(rest, 60 * S)
    out = sign
    if h:
        out += "%dh%dm" % (h, m)
    elif m:
        out += "%dm" % m
    return out + _trim(rest, S) + "s"


def _trim(ns, size):
    whole, frac = divmod(ns, size)
    if frac == 0:
        return str(whole)
    digits = len(str(size)) - 1
    return ("%d.%0*d" % (whole, digits, frac)).rstrip("0")


def stop_detail(reason, cv, r):
    """Describe why a sampler stopped, for info["stop"] (measure.go's stopDetail)."""
    if reason == STOP_CV:
        return "%s %.3f%% <= %.2f%%" % (reason, cv * 100, r.target_cv * 100)
    if reason == STOP_STABLE:
        return "%s at %.3f%%" % (reason, cv * 100)
    if reason == STOP_MAX_TIME:
        return "%s %s (rel-std %.3f%%)" % (reason, go_duration(r.max_time), cv * 100)
    return "%s %d (rel-std %.3f%%)" % (reason, r.max_samples, cv * 100)


def clock_filter(samples, clocks, frac):
    """Drop the samples taken below frac of the median known SM clock.

    Clocks of 0 are unknown and never dropped. Returns (kept, dropped, median
    clock); the median is 0 when no clock is known.
    """
    known = [c for c in clocks if c > 0]
    if not known:
        return list(samples), 0, 0
    med = median(known)
    kept, dropped = [], 0
    for v, c in zip(samples, clocks):
        if 0 < c < frac * med:
            dropped += 1
            continue
        kept.append(v)
    return kept, dropped, med


def many_drops(dropped, total):
    """Report whether more than 5% of a run's samples were dropped for clocks."""
    return total > 0 and dropped > 0.05 * total


def batch_size(per, target, limit):
    """Return how many back-to-back repetitions of per ns last at least target ns, in [1, limit]."""
    if per <= 0:
        return limit
    n = (target + per - 1) // per
    return min(max(n, 1), limit)


def median(x):
    """Return the median of x (NaN when empty)."""
    if not x:
        return math.nan
    s = sorted(x)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2


def rel_std(x):
    """Return the sample standard deviation of x over its mean (NaN below 2 values)."""
    if len(x) < 2:
        return math.nan
    mean = sum(x) / len(x)
    ss = sum((v - mean) ** 2 for v in x)
    return math.sqrt(ss / (len(x) - 1)) / mean


def round_sample(us):
    """Keep 6 significant digits of a time, as the Go harness does (%.6g)."""
    return float("%.6g" % us)


def quantile(sorted_x, p):
    """Return the p-quantile of sorted_x by linear interpolation (numpy's, R's type 7)."""
    h = p * (len(sorted_x) - 1)
    lo = math.floor(h)
    if lo + 1 >= len(sorted_x):
        return sorted_x[-1]
    return sorted_x[lo] + (h - lo) * (sorted_x[lo + 1] - sorted_x[lo])
