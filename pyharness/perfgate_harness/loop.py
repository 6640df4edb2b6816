"""The measuring loop of kernels/measure/loop.go, free of CUDA.

A Loop asks a timer for the GPU time of repetitions of one prepared
benchmark and a monitor for the SM clock, and decides everything else:
warm-up, batch size, samples, pacing, when to stop. The torch timer is in
cuda.py; tests drive the loop with a fake (tests/test_loop.py).

A timer has issue(n) -> ns (n repetitions as the CPU issues them, the
warm-up's rough time) and held(n, cold) -> ns (n repetitions queued behind a
block, after an L2 flush when cold; raises BlockTimeout when the block ran
out before every launch was queued). A monitor has sm_clock() (MHz now, 0:
unknown), sample() (read at most once a millisecond), throttled_now() and
take_reasons().
"""

import time

from . import pace as pacing
from .sampling import MIN_WARMUP, MS, US, NS, S, Sampler, batch_size, round_sample, stop_detail

MODE_COLD = "cold"
MODE_BATCH = "batch"

MAX_WARMUP = 2 * S
WARM_CHUNK = 5 * MS
BATCH_TARGET = 1 * MS
BATCH_LIMIT = 1 << 20

# The most launches queued behind the block as stream launches, and the most
# nodes of a captured graph (kernels.blockedLimit, kernels.graphNodes).
BLOCKED_LIMIT = 512
GRAPH_NODES = 8192
MAX_BLOCK_TIMEOUTS = 20


class BlockTimeout(Exception):
    """The block ran out before every launch of a sample was queued: the sample is discarded."""


def held_limit(launches):
    """Return the most repetitions of launches launches one stream-launched sample may queue."""
    return max(BLOCKED_LIMIT // max(launches, 1), 1)


def captured_limit(launches):
    """Return the most repetitions of launches launches one captured graph may replay."""
    return max(GRAPH_NODES // max(launches, 1), 1)


class Measurement:
    """A Measurement is what the loop produced for one benchmark in one mode (kernels.measurement)."""

    def __init__(self, mode, batch_n, warmup, pace_mode):
        self.mode = mode
        self.samples = []  # µs per op, one per sample
        self.clocks = []  # SM clock in MHz when each sample was taken (0: unknown)
        self.stop = ""
        self.batch_n = batch_n
        self.throttle = []
        self.warmup = warmup  # ns
        self.block_timeouts = 0
        self.pace = None
        self.pace_mode = pace_mode
        self.as_issued = 0.0
        self.timing = ""
        self.draws = 1  # how many draws the benchmark is spread over; this is one of them


class Loop:
    """A Loop measures one prepared benchmark; now() and sleep(ns) are the wall clock.

    draws, when set, says from the warm GPU time of one op (ns) how many
    draws the benchmark is spread over (sampling.draws_for); the loop then
    takes one draw's share of the stop rule (StopRule.per_draw).
    """

    def __init__(self, timer, monitor, now=None, sleep=None, draws=None):
        self.t = timer
        self.mon = monitor
        self.now = now or time.perf_counter_ns
        self.sleep = sleep or (lambda ns: time.sleep(ns / 1e9))
        self.draws = draws

    def measure(self, mode, ops, limit, multi, rule):
        """Warm up, then sample in mode until rule says stop (kernels' loop.measure).

        Samples are µs per op: a repetition is ops operations, a sample at
        most limit repetitions. multi records the as-issued time of a work of
        several launches.
        """
        issued, warm = self.warmup(rule.min_warmup)
        per = self.held_per_rep(issued, limit)
        n = batch_size(per, BATCH_TARGET, limit) if mode == MODE_BATCH else 1
        m = Measurement(mode, n, warm, rule.pace)
        if self.draws is not None:
            k = self.draws(per // max(ops, 1))
            if k > 1:
                rule, m.draws = rule.per_draw(k), k
        if multi:
            m.as_issued = issued / 1e3 / ops
        m.pace = pacing.new_pacer(rule.pace)
        m.pace.give_up = rule.max_time // 2
        s = Sampler(rule)
        self.mon.take_reasons()
        t0 = self.now()
        while True:
            try:
                d = self.t.held(n, mode == MODE_COLD)
            except BlockTimeout:
                m.block_timeouts += 1
                n = max(n // 2, 1)
                if m.block_timeouts > MAX_BLOCK_TIMEOUTS:
                    raise
                m.batch_n = n
                continue
            clk = self.mon.sample()
            v = m.pace.judge(self.mon.throttled_now(), self.now() - t0)
            if v == pacing.KEEP:
                s.add(round_sample(d / 1e3 / (n * ops)), d)
                m.clocks.append(clk)
            elif v == pacing.RESTART:
                m.pace.discarded(len(s.samples))
                s, m.clocks = Sampler(rule), []
            stop, why = s.done(self.now() - t0)
            if stop:
                m.stop = stop_detail(why, s.cv(), rule)
                break
            self.sleep(m.pace.gap(d))
        m.samples = s.samples
        m.throttle = self.mon.take_reasons()
        return m

    def warmup(self, least=0):
        """Run the work for at least least (MIN_WARMUP when 0) and until the SM clock stops rising.

        Returns (ns of one repetition when warm, ns the warm-up took).
        """
        t0 = self.now()
        d = self.t.issue(1)  # also the first call: compilation and lazy loading happen here
        per = max(d, 1 * US)
        prev = self.mon.sm_clock()
        while True:
            n = batch_size(per, WARM_CHUNK, BATCH_LIMIT)
            d = self.t.issue(n)
            per = max(d // n, 1 * NS)
            clk = self.mon.sm_clock()
            el = self.now() - t0
            if el >= MAX_WARMUP or (el >= (least or MIN_WARMUP) and clk <= prev):
                return per, el
            prev = clk

    def held_per_rep(self, per, limit):
        """Time a held batch to learn one repetition's GPU time (issue times a tiny kernel's CPU rate)."""
        n = batch_size(per, BATCH_TARGET, limit)
        for _ in range(5):
            try:
                d = self.t.held(n, False)
            except BlockTimeout:
                n = max(n // 2, 1)
                continue
            return max(d // n, 1 * NS)
        raise BlockTimeout("the block ran out in 5 tries at learning the time of one repetition")
