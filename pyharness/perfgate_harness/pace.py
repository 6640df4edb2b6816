"""Pacing under the power limit: a port of kernels/measure/pace.go.

A Pacer spaces a benchmark's samples with idle time, so that sustained work
that would run a GPU into its power limit averages below it. The auto rule
starts with no idle time; the first sample taken while NVML reports a power
or thermal reason discards the samples so far and sets the ratio to 1; every
throttled sample, and every sample within PACE_SETTLE after one, is retaken;
throttling that goes on widens the ratio (2, 4) at most once per PACE_SETTLE.
docs/gpu.md ("Pacing under the power limit") has the measurements behind it.
"""

from .sampling import MS

PACE_AUTO = "auto"
PACE_OFF = "off"

# NVML clock-event reasons that mean the GPU holds its clocks down for power
# or heat: sw_power_cap, hw_slowdown, sw_thermal, hw_thermal, hw_power_brake.
THROTTLE_MASK = 0x4 | 0x8 | 0x20 | 0x40 | 0x80

PACE_FIRST = 1.0
PACE_MAX = 4.0
PACE_SETTLE = 500 * MS

KEEP, RETAKE, RESTART = 0, 1, 2


def throttled(mask):
    """Report whether an NVML clock-event reason mask holds a power or thermal reason."""
    return mask & THROTTLE_MASK != 0


class Pacer:
    """A Pacer decides, sample by sample, to keep, retake or restart, and how long to idle."""

    def __init__(self, ratio=0.0, auto=False):
        self.ratio = ratio
        self.auto = auto
        self.give_up = 0  # ns of sampling after which every sample is kept (0: never)
        self.retaken = 0
        self.kept = 0
        self.idle = 0  # ns
        self._widened = 0
        self._last = 0
        self._seen = False

    def state(self):
        """Return (ratio, auto, retaken, kept), the fields the Go tests compare."""
        return (self.ratio, self.auto, self.retaken, self.kept)

    def judge(self, is_throttled, elapsed):
        """Decide about a sample taken elapsed ns into sampling: KEEP, RETAKE or RESTART."""
        settled = not self._seen or elapsed - self._widened >= PACE_SETTLE
        late = self.give_up > 0 and elapsed >= self.give_up
        if not self.auto or late or (self.ratio >= PACE_MAX and settled):
            if is_throttled:
                self.kept += 1
            return KEEP
        if not is_throttled:
            if self._seen and elapsed - self._last < PACE_SETTLE:
                self.retaken += 1
                return RETAKE
            return KEEP
        first = not self._seen
        if settled:
            self.ratio = min(max(PACE_FIRST, 2 * self.ratio), PACE_MAX)
            self._widened = elapsed
        self._seen, self._last = True, elapsed
        self.retaken += 1
        return RESTART if first else RETAKE

    def discarded(self, n):
        """Count n samples thrown away when sampling restarted."""
        self.retaken += n

    def gap(self, gpu):
        """Return the idle ns to leave after a sample of gpu ns, and add it to the total."""
        g = int(self.ratio * gpu)
        self.idle += g
        return g

    def record(self, metrics, info, mode):
        """Add the pacer's counts to a benchmark's metrics and info (nothing when it never acted)."""
        if self.retaken > 0:
            metrics["throttled_retaken"] = float(self.retaken)
        if self.kept > 0:
            metrics["throttled_kept"] = float(self.kept)
        if self.ratio > 0:
            metrics["pace_ratio"] = self.ratio
            metrics["pace_idle_ms"] = (self.idle // 1000) / 1e3
        mode = mode or PACE_AUTO
        if self.ratio > 0 or self.retaken > 0 or self.kept > 0 or mode != PACE_AUTO:
            info["pacing"] = "%s: idle %g× each sample's GPU time; throttled samples %d retaken, %d kept" % (
                mode, self.ratio, self.retaken, self.kept)


def new_pacer(mode):
    """Return the pacer of a --pace value: "" or auto, off, or a fixed ratio from 0 to 100."""
    if mode in ("", PACE_AUTO):
        return Pacer(auto=True)
    if mode == PACE_OFF:
        return Pacer()
    try:
        r = float(mode)
    except ValueError:
        r = -1
    if not 0 <= r <= 100:
        raise ValueError("%r is not %s, %s or an idle ratio from 0 to 100" % (mode, PACE_AUTO, PACE_OFF))
    return Pacer(ratio=r)
