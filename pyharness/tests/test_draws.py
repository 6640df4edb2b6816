"""The cases of kernels/measure/draws_test.go, run against the Python port (sampling.draws_for, StopRule.per_draw, draws.Drawn, the loop's share)."""

import math
import unittest

from perfgate_harness import draws as dr
from perfgate_harness import loop as lp
from perfgate_harness import sampling as sp
from perfgate_harness.sampling import MS, US

from .test_loop import FakeGPU

CI = sp.rules_for(size=sp.SIZE_CI)


class DrawsFor(unittest.TestCase):
    def test_cases(self):
        for name, fast, mode, stream, per_op, want in [
            ("cold 4K add (1.1 µs warm)", False, "cold", False, 1100, sp.CONTEXT_DRAWS),
            ("cold just under", False, "cold", False, sp.DRAW_BELOW - 1, sp.CONTEXT_DRAWS),
            ("cold at the limit", False, "cold", False, sp.DRAW_BELOW, 1),
            ("cold 16M add (68 µs)", False, "cold", False, 68 * US, 1),
            ("batch 4K add: graph replays", False, "batch", False, 1100, 1),
            ("stream launches, batch", False, "batch", True, 3 * US, sp.CONTEXT_DRAWS),
            ("stream launches, slow op", False, "cold", True, MS, sp.CONTEXT_DRAWS),
            ("fast runs are one draw", True, "cold", True, US, 1),
        ]:
            with self.subTest(name):
                self.assertEqual(sp.draws_for(fast, mode, stream, per_op), want)


class PerDraw(unittest.TestCase):
    def test_share(self):
        d = CI.per_draw(4)  # ci: 10..40 samples, 100 ms of GPU, 5 s
        self.assertEqual((d.min_samples, d.max_samples, d.min_gpu, d.max_time, d.stable_window, d.min_warmup),
                         (3, 10, 25 * MS, 1250 * MS, 5, sp.MIN_WARMUP // 4))
        self.assertEqual((d.target_cv, d.stable_spread, d.pace), (CI.target_cv, CI.stable_spread, CI.pace))
        full = sp.rules_for().per_draw(4)
        self.assertEqual((full.min_samples, full.max_samples), (3, 500))
        self.assertEqual(CI.per_draw(1), CI)
        self.assertEqual(CI.max_samples, sp.CI_MAX_SAMPLES)  # per_draw leaves its rule alone


class LoopShare(unittest.TestCase):
    def test_loop_takes_a_draws_share(self):
        """TestLoopTakesADrawsShare: told the benchmark is spread over 4 draws, the loop samples one share."""
        jitter = [1, 1.05, 0.95, 1.1, 0.9]  # CV about 7%: stops on the sample cap
        saw = []

        def run(draws):
            f = FakeGPU(1100, jitter)
            return lp.Loop(f, f, now=lambda: f.elapsed, sleep=lambda ns: None, draws=draws).measure(
                lp.MODE_COLD, 1, 512, False, CI)
        one = run(None)
        four = run(lambda per_op: saw.append(per_op) or sp.draws_for(False, "cold", False, per_op))
        self.assertEqual((one.draws, len(one.samples)), (1, sp.CI_MAX_SAMPLES))
        self.assertEqual((four.draws, len(four.samples)), (sp.CONTEXT_DRAWS, sp.CI_MAX_SAMPLES // sp.CONTEXT_DRAWS))
        self.assertTrue(US <= saw[0] <= 1200, saw)

    def test_warmup_share(self):
        """TestWarmupShare: a draw's rule shortens the warm-up's minimum, not its wait for the clock."""
        def warm(rule, clocks=None):
            return FakeGPU(2 * US, clocks=clocks).loop().measure(lp.MODE_COLD, 1, 512, False, rule).warmup
        full, share = warm(CI), warm(CI.per_draw(4))
        self.assertTrue(full >= sp.MIN_WARMUP and sp.MIN_WARMUP // 4 <= share < sp.MIN_WARMUP // 2, (full, share))
        rising = [1000 + 20 * i for i in range(40)]
        self.assertGreaterEqual(warm(CI.per_draw(4), rising), 5 * sp.MIN_WARMUP // 4)


def measurement(samples, clocks, stop, throttle=(), block_timeouts=0, timing=""):
    m = lp.Measurement("cold", 1, 30 * MS, "")
    m.samples, m.clocks, m.stop, m.throttle = samples, clocks, stop, list(throttle)
    m.block_timeouts, m.timing = block_timeouts, timing
    return m


class DrawnPools(unittest.TestCase):
    def test_pools(self):
        d = dr.Drawn()
        d.add(measurement([4.0, 4.1, 3.9], [1980] * 3, "max-samples 10", ["sw_power"], timing="graph"))
        d.add(measurement([4.2, 4.3], [1980, 1975], "max-samples 10", ["sw_power", "hw_slowdown"], block_timeouts=1))
        m = d.measurement()
        self.assertEqual((len(m.samples), len(m.clocks), m.timing, m.block_timeouts, m.warmup), (5, 5, "graph", 1, 60 * MS))
        self.assertEqual(m.throttle, ["sw_power", "hw_slowdown"])
        self.assertEqual(m.stop, "2 processes, each max-samples 10")
        # Medians 4.0 and 4.25: the SD of their logs is |ln(4.25/4)|/sqrt(2) (as draws_test.go).
        want = 100 * abs(math.log(4.25 / 4.0)) / math.sqrt(2)
        self.assertAlmostEqual(d.spread_pct(), want, delta=1e-9)
        metrics = {}
        d.record(metrics)
        self.assertEqual(metrics, {"draws": 2.0, "draw_spread_pct": 4.287})  # 100*ln(1.0625)/sqrt(2) = 4.2868…

    def test_one_draw(self):
        d = dr.Drawn()
        d.add(measurement([1.0], [0], "rel-std"))
        metrics = {}
        d.record(metrics)
        self.assertEqual(metrics, {"draws": 1.0})
        self.assertEqual(d.measurement().stop, "rel-std")

    def test_round_trip(self):
        """What a draw process hands back is what the parent pools."""
        m = measurement([2.5, 2.6], [1980, 1980], "max-samples 10", ["hw_slowdown"], 2, "graph: …")
        back = dr.measurement_from(dr.measurement_dict(m), "cold")
        self.assertEqual(dr.measurement_dict(back), dr.measurement_dict(m))
        self.assertEqual(back.mode, "cold")


if __name__ == "__main__":
    unittest.main()
