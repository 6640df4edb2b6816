"""The loop cases of kernels/measure/loop_test.go, run against the Python port with the same fake GPU."""

import unittest

from perfgate_harness import loop as lp
from perfgate_harness import sampling as sp
from perfgate_harness.sampling import MS, US, S

FAKE_OVERHEAD = 20 * US


class FakeGPU:
    """The Go tests' fakeGPU: each repetition takes per ns (times jitter[i] for the
    i-th held call, cycling), a held batch over max_held times out, and the wall
    clock advances by every call's GPU time plus a fixed overhead."""

    def __init__(self, per, jitter=None, max_held=0, clocks=None, throttle=None):
        self.per, self.jitter, self.max_held = per, jitter or [], max_held
        self.clocks, self.throttle = clocks or [], throttle
        self.elapsed, self.calls, self.issued, self.reads = 0, [], 0, 0

    def issue(self, n):
        self.issued += 1
        d = n * self.per
        self.elapsed += d + FAKE_OVERHEAD
        return d

    def held(self, n, cold):
        self.calls.append((n, cold))
        self.elapsed += FAKE_OVERHEAD
        if self.max_held > 0 and n > self.max_held:
            self.elapsed += 50 * MS
            raise lp.BlockTimeout()
        d = n * self.per
        if self.jitter:
            d = int(d * self.jitter[(len(self.calls) - 1) % len(self.jitter)])
        self.elapsed += d
        return d

    def sm_clock(self):
        self.reads += 1
        if not self.clocks:
            return 1980
        return self.clocks[min(self.reads - 1, len(self.clocks) - 1)]

    def sample(self):
        return 1980

    def throttled_now(self):
        return self.throttle is not None and self.throttle(len(self.calls))

    def take_reasons(self):
        return []

    def loop(self):
        def sleep(ns):
            self.elapsed += ns
        return lp.Loop(self, self, now=lambda: self.elapsed, sleep=sleep)


CI = sp.rules_for(size=sp.SIZE_CI)


class LoopCases(unittest.TestCase):
    def test_batch_size(self):
        for name, per, launches, want in [
            ("a 2.2 µs launch: 1 ms of launches", 2200, 1, 455),
            ("a 1 µs launch: capped at the launch queue", 1 * US, 1, lp.BLOCKED_LIMIT),
            ("a 1 µs launch replayed from a graph: 1 ms of launches", 1 * US, -1, 1000),
            ("128 launches a repetition: 4 fit the queue", 10 * US, 128, 4),
            ("a sequence longer than the queue: one repetition (chunked)", 22 * MS, 10000, 1),
            ("a long kernel: one launch", 3 * MS, 1, 1),
        ]:
            with self.subTest(name):
                f = FakeGPU(per)
                limit = lp.captured_limit(1) if launches < 0 else lp.held_limit(launches)
                m = f.loop().measure(lp.MODE_BATCH, 1, limit, launches > 1, CI)
                self.assertEqual(m.batch_n, want)
                for n, cold in f.calls[1:]:
                    self.assertEqual((n, cold), (want, False))
                self.assertEqual(m.samples[0], sp.round_sample(per / 1e3))

    def test_cold_flushes_every_sample(self):
        f = FakeGPU(5 * US)
        m = f.loop().measure(lp.MODE_COLD, 1, lp.held_limit(1), False, CI)
        self.assertEqual((m.batch_n, len(m.samples)), (1, sp.CI_MAX_SAMPLES))
        cold = [n for n, c in f.calls if c]
        self.assertEqual(len(cold), sp.CI_MAX_SAMPLES)
        self.assertEqual(set(cold), {1})

    def test_ops_per_repetition(self):
        f = FakeGPU(1100 * US)
        m = f.loop().measure(lp.MODE_BATCH, 500, lp.held_limit(10000), True, CI)
        self.assertEqual(m.samples[0], 2.2)

    def test_block_timeouts(self):
        f = FakeGPU(2 * US, max_held=150)
        m = f.loop().measure(lp.MODE_BATCH, 1, lp.held_limit(1), False, CI)
        self.assertTrue(75 <= m.batch_n <= 150 and m.block_timeouts > 0 and len(m.samples) == sp.CI_MAX_SAMPLES,
                        (m.batch_n, m.block_timeouts, len(m.samples)))

        class Always(FakeGPU):
            def held(self, n, cold):
                self.calls.append((n, cold))
                raise lp.BlockTimeout()
        with self.assertRaises(lp.BlockTimeout):
            Always(1 * US).loop().measure(lp.MODE_BATCH, 1, lp.held_limit(1), False, CI)

    def test_stop_rules(self):
        for name, per, jitter, rule, want, want_n in [
            ("ci: a quiet launch-bound kernel stops on the sample cap", 2 * US, None, CI, "max-samples 40", 40),
            ("ci: a quiet 20 ms kernel stops on rel-std after 10", 20 * MS, None, CI, "rel-std", 10),
            ("ci: a noisy kernel stops on the sample cap", 20 * MS, [0.9, 1.1, 1, 0.95, 1.05], CI, "max-samples 40", 40),
            ("default: a quiet 1 ms sample needs 0.5 s of GPU time", 1 * MS, None, sp.rules_for(), "rel-std", 500),
            ("max-time caps a slow benchmark", 200 * MS, [0.9, 1.1], sp.rules_for(max_time=2 * S), "max-time", 10),
        ]:
            with self.subTest(name):
                m = FakeGPU(per, jitter).loop().measure(lp.MODE_COLD, 1, lp.held_limit(1), False, rule)
                self.assertTrue(m.stop.startswith(want), m.stop)
                self.assertEqual(len(m.samples), want_n)

    def test_warms_up_until_the_clock_settles(self):
        ramp = [1200, 1400, 1600, 1800, 1980, 1980]
        f = FakeGPU(5 * MS, clocks=ramp)
        m = f.loop().measure(lp.MODE_COLD, 1, lp.held_limit(1), False, CI)
        self.assertEqual(f.reads, len(ramp))
        self.assertGreaterEqual(m.warmup, 25 * MS)

    def test_throttled_samples_retaken(self):
        f = FakeGPU(20 * MS, throttle=lambda call: 6 <= call <= 9)
        m = f.loop().measure(lp.MODE_COLD, 1, lp.held_limit(1), False, CI)
        self.assertTrue(m.pace.ratio > 0 and m.pace.retaken > 0 and len(m.samples) >= CI.min_samples)

    def test_limits(self):
        for launches, want in {0: 512, 1: 512, 3: 170, 128: 4, 512: 1, 10000: 1}.items():
            self.assertEqual(lp.held_limit(launches), want)
        for launches, want in {1: 8192, 3: 2730, 1000: 8, 5000: 1, 10000: 1}.items():
            self.assertEqual(lp.captured_limit(launches), want)

    def test_as_issued(self):
        m = FakeGPU(1100 * US).loop().measure(lp.MODE_BATCH, 500, lp.held_limit(500), True, CI)
        self.assertEqual(m.as_issued, 2.2)
        m = FakeGPU(2 * US).loop().measure(lp.MODE_BATCH, 1, lp.captured_limit(1), False, CI)
        self.assertEqual(m.as_issued, 0)


if __name__ == "__main__":
    unittest.main()
