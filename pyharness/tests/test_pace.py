"""The cases of kernels/measure/pace_test.go, run against the Python port."""

import unittest

from perfgate_harness import pace
from perfgate_harness.sampling import MS, S

K, R, X = pace.KEEP, pace.RETAKE, pace.RESTART


class Pacing(unittest.TestCase):
    def test_new_pacer(self):
        for mode, want in [("", (0, True)), ("auto", (0, True)), ("off", (0, False)), ("1", (1, False)),
                           ("0.25", (0.25, False))]:
            p = pace.new_pacer(mode)
            self.assertEqual((p.ratio, p.auto), want, mode)
        for mode in ["-1", "fast", "1000"]:
            with self.assertRaises(ValueError):
                pace.new_pacer(mode)

    def test_throttled(self):
        for mask, want in [(0, False), (0x1, False), (0x2 | 0x10 | 0x100, False), (0x4, True), (0x8, True),
                           (0x20, True), (0x40, True), (0x80, True), (0x1 | 0x4, True)]:
            self.assertEqual(pace.throttled(mask), want, hex(mask))

    def test_judge(self):
        T, F = True, False
        for name, mode, steps, want, ratio, retaken, kept in [
            ("never throttled: no idle, every sample kept", "auto",
             [(F, 0), (F, 5), (F, 900)], [K, K, K], 0, 0, 0),
            ("the first throttled sample restarts at ratio 1; the next 500 ms are retaken", "auto",
             [(F, 0), (T, 3), (F, 6), (F, 502), (F, 503)], [K, X, R, R, K], 1, 3, 0),
            ("throttled within the settle time: retaken, no widening", "auto",
             [(T, 0), (T, 50), (T, 499), (F, 600), (F, 998), (F, 999)], [X, R, R, R, R, K], 1, 5, 0),
            ("throttled after the settle time: widened again, up to 4", "auto",
             [(T, 0), (T, 500), (T, 1000), (T, 1400)], [X, R, R, R], 4, 4, 0),
            ("at the widest ratio, after settling, every sample is kept", "auto",
             [(T, 0), (T, 500), (T, 1000), (T, 1200), (T, 1500), (F, 1510), (T, 1600)],
             [X, R, R, R, K, K, K], 4, 4, 2),
            ("after GiveUp (1 s here) every sample is kept", "auto",
             [(T, 0), (T, 600), (T, 999), (T, 1000), (F, 1001)], [X, R, R, K, K], 2, 3, 1),
            ("off keeps and counts throttled samples", "off", [(T, 0), (F, 1), (T, 2)], [K, K, K], 0, 0, 2),
            ("a fixed ratio never widens", "2", [(T, 0), (T, 900)], [K, K], 2, 0, 2),
        ]:
            with self.subTest(name):
                p = pace.new_pacer(mode)
                if name.startswith("after GiveUp"):
                    p.give_up = 1 * S
                got = [p.judge(t, ms * MS) for t, ms in steps]
                self.assertEqual(got, want)
                self.assertEqual((p.ratio, p.retaken, p.kept), (ratio, retaken, kept))

    def test_gap_and_record(self):
        p = pace.Pacer(ratio=1.5)
        self.assertEqual(p.gap(2 * MS), 3 * MS)
        p.gap(1 * MS)
        p.retaken, p.kept = 3, 1
        m, info = {}, {}
        p.record(m, info, "")
        self.assertEqual(m, {"throttled_retaken": 3, "throttled_kept": 1, "pace_ratio": 1.5, "pace_idle_ms": 4.5})
        self.assertEqual(info["pacing"], "auto: idle 1.5× each sample's GPU time; throttled samples 3 retaken, 1 kept")
        m, info = {}, {}
        q = pace.Pacer(auto=True)
        q.gap(1 * MS)
        q.record(m, info, pace.PACE_AUTO)
        self.assertEqual((m, info), ({}, {}))


if __name__ == "__main__":
    unittest.main()
