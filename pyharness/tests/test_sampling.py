"""The cases of kernels/measure/rule_test.go and kernels/suite/summary_test.go, run against the Python port."""

import math
import unittest

from perfgate_harness import sampling as sp
from perfgate_harness.sampling import MS, US, S


class SamplerStops(unittest.TestCase):
    """TestSamplerStops: the rule stops for the same reason after the same number of samples."""

    rule = dict(min_samples=10, min_gpu=10 * MS, max_time=1 * S, max_samples=1000,
                target_cv=0.005, stable_spread=0.02, stable_window=50)

    cases = [
        ("quiet kernel stops on rel-std once min GPU time is in",
         lambda i: 100 + 0.1 * (i % 3 - 1), 1 * MS, lambda n: 0, sp.STOP_CV, 10),
        ("min GPU time holds back a quiet tiny kernel",
         lambda i: 5 + 0.001 * (i % 3 - 1), 5 * US, lambda n: 0, sp.STOP_CV, 2000),
        ("noisy kernel stops once its rel-std is stable",
         lambda i: 100 + 10 * (i % 5 - 2), 1 * MS, lambda n: 0, sp.STOP_STABLE, -200),
        ("wall-clock cap",
         lambda i: 100 + 10 * (i % 5 - 2), 1 * US, lambda n: n * 100 * MS, sp.STOP_MAX_TIME, 10),
    ]

    def test_cases(self):
        for name, sample, gpu, elapsed, want, want_n in self.cases:
            with self.subTest(name):
                r = sp.StopRule(**self.rule)
                if want_n == 2000:
                    r.max_samples = 5000
                s = sp.Sampler(r)
                for i in range(10000):
                    s.add(sample(i), gpu)
                    stop, why = s.done(elapsed(len(s.samples)))
                    if stop:
                        n = len(s.samples)
                        self.assertEqual(why, want)
                        if want_n > 0:
                            self.assertEqual(n, want_n)
                        else:
                            self.assertLessEqual(n, -want_n)
                        break
                else:
                    self.fail("never stopped")

    def test_max_samples(self):
        s = sp.Sampler(sp.StopRule(min_samples=10, min_gpu=3600 * S, max_time=3600 * S, max_samples=25))
        for i in range(25):
            s.add(float(i), 1 * US)
        self.assertEqual(s.done(0), (True, sp.STOP_MAX_N))

    def test_cv_matches_two_pass(self):
        x = [3.1, 2.9, 3.4, 3.0, 2.8, 3.3, 3.05]
        s = sp.Sampler(sp.StopRule(min_samples=100))
        for v in x:
            s.add(v, 0)
        self.assertAlmostEqual(s.cv(), sp.rel_std(x), delta=1e-12)


class RulesFor(unittest.TestCase):
    """TestRulesFor and TestCIStopsOnSamples."""

    def test_rules(self):
        r = sp.rules_for()
        self.assertEqual((r.min_samples, r.min_gpu, r.max_time, r.target_cv), (10, 500 * MS, 15 * S, 0.005))
        r = sp.rules_for(fast=True, max_time=3 * S)
        self.assertEqual(r.max_time, 3 * S)
        self.assertLess(r.min_gpu, 500 * MS)
        r = sp.rules_for(size=sp.SIZE_CI)
        self.assertEqual((r.max_samples, r.max_time), (sp.CI_MAX_SAMPLES, 5 * S))
        self.assertEqual(sp.rules_for(size=sp.SIZE_CI, fast=True).max_samples, sp.CI_MAX_SAMPLES)

    def test_ci_stops_on_samples(self):
        s = sp.Sampler(sp.rules_for(size=sp.SIZE_CI))
        elapsed, i = 0, 0
        while True:
            s.add(50e3 * (1 + 0.03 * (i % 7 - 3) / 3), 50 * MS)
            elapsed += 50 * MS
            i += 1
            done, why = s.done(elapsed)
            if done:
                self.assertIn(why, (sp.STOP_MAX_N, sp.STOP_STABLE))
                self.assertLessEqual(elapsed, 3 * S)
                return


class Helpers(unittest.TestCase):
    """TestClockFilter, TestManyDrops, TestBatchSize, TestMedian, TestRoundSample, TestAddSummary's quantiles."""

    def test_clock_filter(self):
        for name, samples, clocks, kept, dropped, med in [
            ("drops samples below 90% of the median clock",
             [1, 2, 3, 4, 5], [1980, 1980, 1700, 1980, 1785], [1, 2, 4, 5], 1, 1980),
            ("exactly 90% is kept", [1, 2, 3], [1000, 900, 1000], [1, 2, 3], 0, 1000),
            ("unknown clocks never drop", [1, 2], [0, 0], [1, 2], 0, 0),
            ("unknown clocks are ignored for the median", [1, 2, 3], [0, 1980, 1000], [1, 2], 1, 1490),
        ]:
            with self.subTest(name):
                self.assertEqual(sp.clock_filter(samples, clocks, 0.9), (kept, dropped, med))

    def test_many_drops(self):
        for dropped, total, want in [(0, 100, False), (5, 100, False), (6, 100, True), (0, 0, False)]:
            self.assertEqual(sp.many_drops(dropped, total), want)

    def test_batch_size(self):
        for per, target, limit, want in [(3 * US, MS, 512, 334), (2 * MS, MS, 512, 1), (MS, MS, 512, 1),
                                         (100, MS, 512, 512), (0, MS, 64, 64)]:
            self.assertEqual(sp.batch_size(per, target, limit), want)

    def test_median(self):
        for x, want in [([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), ([7], 7)]:
            self.assertEqual(sp.median(x), want)
        self.assertTrue(math.isnan(sp.median([])))

    def test_round_sample(self):
        for v, want in [(2.1263457, 2.12635), (0.000712345678, 0.000712346), (1054.6912345, 1054.69), (0, 0)]:
            self.assertEqual(sp.round_sample(v), want)

    def test_quantile(self):
        # The numbers of kernels/suite/summary_test.go (statistics.quantiles, method='inclusive').
        s = sorted([3.1, 2.7, 5.9, 4.4, 2.2, 8.8, 3.3, 3.0, 4.1, 2.9])
        self.assertAlmostEqual(sp.quantile(s, 0.95), 7.495, delta=1e-12)
        self.assertAlmostEqual(sp.quantile(s, 0.99), 8.539, delta=1e-12)
        self.assertEqual(sp.quantile([5.0], 0.99), 5.0)

    def test_stop_detail(self):
        r = sp.rules_for(max_time=3 * S)
        self.assertEqual(sp.stop_detail(sp.STOP_CV, 0.00099, r), "rel-std 0.099% <= 0.50%")
        self.assertEqual(sp.stop_detail(sp.STOP_STABLE, 0.0278, r), "rel-std-stable at 2.780%")
        self.assertEqual(sp.stop_detail(sp.STOP_MAX_TIME, 0.0485, r), "max-time 3s (rel-std 4.850%)")
        self.assertEqual(sp.stop_detail(sp.STOP_MAX_N, 0.0339, r), "max-samples 2000 (rel-std 3.390%)")

    def test_go_duration(self):
        for ns, want in [(15 * S, "15s"), (1500 * MS, "1.5s"), (25 * MS, "25ms"), (90 * S, "1m30s"),
                         (1234 * MS, "1.234s"), (1500 * US, "1.5ms"), (0, "0s"), (3600 * S, "1h0m0s")]:
            self.assertEqual(sp.go_duration(ns), want)


if __name__ == "__main__":
    unittest.main()
