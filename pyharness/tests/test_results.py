"""results.py: benchmark entries as the Go harness writes them, and the atomic writer."""

import json
import os
import tempfile
import unittest

from perfgate_harness import check, results
from perfgate_harness import loop as lp
from perfgate_harness import sampling as sp
from tests.test_loop import FakeGPU


def canned(mode="cold", per=5 * sp.US, clocks=None):
    """Return a Measurement from the fake GPU, with clocks replaced when given."""
    m = FakeGPU(per).loop().measure(mode, 1, lp.held_limit(1), False, sp.rules_for(size=sp.SIZE_CI))
    if clocks is not None:
        m.clocks = clocks
    return m


class ToBenchmark(unittest.TestCase):
    def test_entry(self):
        m = canned()
        b = results.to_benchmark("py", "add", {"n": "1024", "dtype": "fp32"}, m, bytes_=12 * 1024, flops=1024,
                                 reference="py/torch_add/dtype=fp32/n=1024/mode=cold")
        self.assertEqual(b["name"], "add/dtype=fp32/n=1024/mode=cold")
        self.assertEqual(b["params"], {"n": "1024", "dtype": "fp32", "mode": "cold"})
        self.assertEqual((b["unit"], b["better"]), ("us", "lower"))
        self.assertEqual(b["samples"], [5.0] * sp.CI_MAX_SAMPLES)
        self.assertEqual(b["info"]["stop"], "max-samples 40 (rel-std 0.000%)")
        self.assertEqual(b["info"]["batch_n"], "1")
        self.assertEqual(b["info"]["reference"], "py/torch_add/dtype=fp32/n=1024/mode=cold")
        met = b["metrics"]
        self.assertEqual(met["median_us"], 5.0)
        self.assertAlmostEqual(met["gbps"], 12 * 1024 / 5e-6 / 1e9)
        self.assertAlmostEqual(met["tflops"], 1024 / 5e-6 / 1e12)
        self.assertEqual((met["samples_taken"], met["clock_drops"], met["sm_clock_mhz"]), (40, 0, 1980))

    def test_clock_drops_flag(self):
        clocks = [1980] * 30 + [1500] * 10
        b = results.to_benchmark("py", "add", {}, canned(clocks=clocks))
        self.assertEqual(len(b["samples"]), 30)
        self.assertEqual(b["metrics"]["clock_drops"], 10)
        self.assertIn("10 of 40 samples taken below 90% of the median SM clock (1980 MHz)", b["info"]["clock_flag"])

    def test_ref_speedups(self):
        fast = results.to_benchmark("py", "mine", {}, canned(per=5 * sp.US), reference="py/torch/mode=cold")
        slow = results.to_benchmark("py", "torch", {}, canned(per=10 * sp.US))
        bs = [fast, slow]
        results.add_ref_speedups(bs)
        self.assertEqual(fast["metrics"]["speedup_vs_torch"], 2.0)
        self.assertNotIn("speedup_vs_torch", slow["metrics"])

    def test_write_results(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.json")
            bs = [results.to_benchmark("py", "add", {}, canned()),
                  results.error_benchmark("py", "bad", {}, "cold", ValueError("boom"))]
            results.write_results(path, results.new_run(env={"gpu": "X"}), bs)
            doc = json.load(open(path))
            self.assertEqual(doc["schema"], "perfgate.results/v1")
            self.assertEqual(doc["benchmarks"][1]["error"], "boom")
            self.assertEqual(os.listdir(d), ["out.json"])


class Tolerances(unittest.TestCase):
    def test_by_dtype(self):
        self.assertEqual(check.tolerance_for("fp16"), (1e-4, 2e-3))
        self.assertEqual(check.tolerance_for("bf16"), (1e-3, 1.6e-2))
        self.assertEqual(check.tolerance_for("fp32"), (1e-6, 1e-5))
        self.assertEqual(check.tolerance_for("i32"), (0, 0))
        self.assertEqual(check.tolerance_for("fp16", 0.1), (0.1, 0.1))

    def test_indices(self):
        self.assertEqual(len(check.check_indices(1 << 20)), 1 << 20)
        idx = check.check_indices(1 << 24)
        self.assertEqual(len(idx), 3 * (1 << 16))
        self.assertEqual((idx[0], idx[-1]), (0, (1 << 24) - 1))
        self.assertEqual(sorted(set(idx)), idx)


if __name__ == "__main__":
    unittest.main()
