"""The torch side on a GPU: timer, graph fallback, correctness check, spec runner.

Skipped without torch or CUDA (the device script runs them: docs/results/python/device.sh).
"""

import os
import unittest

try:
    import torch
    HAVE_CUDA = torch.cuda.is_available()
except ImportError:
    HAVE_CUDA = False

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


@unittest.skipUnless(HAVE_CUDA, "no torch with CUDA: the torch side needs a GPU")
class TorchSide(unittest.TestCase):
    def test_sleep_kernel_times_as_events_do(self):
        """A kernel of a fixed number of cycles (torch.cuda._sleep, about 200 µs) is timed at what a pair of
        events around it says, in both modes."""
        from perfgate_harness import bench
        from perfgate_harness.sampling import SIZE_CI, rules_for
        cycles = 400_000
        for _ in range(50):
            torch.cuda._sleep(cycles)  # the clock up first
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.cuda._sleep(cycles)
        e.record()
        e.synchronize()
        direct = s.elapsed_time(e) * 1e3
        for mode in ("cold", "batch"):
            m = bench.measure(lambda: torch.cuda._sleep(cycles), mode, rules_for(size=SIZE_CI))
            med = sorted(m.samples)[len(m.samples) // 2]
            self.assertAlmostEqual(med, direct, delta=0.1 * direct, msg="%s: median %.1f µs, events %.1f µs (%s)" % (mode, med, direct, m.timing))
            self.assertTrue(m.timing.startswith("graph"), m.timing)

    def test_capture_by_driver_or_by_torch(self):
        """A callable that allocates nothing is captured by the driver API, one that allocates by torch's
        CUDAGraph (graphs.py); both graphs replay to the right values on the current stream."""
        from perfgate_harness import graphs
        a = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
        b, c = torch.ones_like(a), torch.empty_like(a)
        g, _, how = graphs.capture(torch, lambda: torch.add(a, b, out=c), 3)
        self.assertEqual(how, graphs.BY_DRIVER)
        c.zero_()
        g.replay()
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(c, a + 1))
        g2, out, how2 = graphs.capture(torch, lambda: a * 2, 1)
        self.assertEqual(how2, graphs.BY_TORCH % "the calls allocate")
        out.zero_()
        g2.replay()
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(out, a * 2))

    def test_uncaptured_callable_is_timed_as_stream_launches(self):
        from perfgate_harness import bench
        from perfgate_harness.sampling import SIZE_CI, rules_for
        a = torch.ones(1 << 20, device="cuda")
        m = bench.measure(lambda: a * 2, "batch", rules_for(size=SIZE_CI), graph=False)
        self.assertTrue(m.timing.startswith("stream: stream launches behind a block"), m.timing)
        self.assertEqual(len(m.samples), 40)
        self.assertEqual(m.block_timeouts, 0)

    def test_synchronizing_callable_is_timed_as_issued(self):
        """A callable that waits for the GPU cannot be queued behind the block (issue 31's failure on the H200):
        it is timed as issued, and says that its time includes the CPU's."""
        from perfgate_harness import bench
        from perfgate_harness.sampling import SIZE_CI, rules_for
        a = torch.ones(1 << 20, device="cuda")

        def syncs():
            torch.cuda.synchronize()  # not allowed while capturing
            return a * 2

        def item():
            return (a * 2).sum().item()  # a copy to the host
        for fn in (syncs, item):
            for mode in ("cold", "batch"):
                m = bench.measure(fn, mode, rules_for(size=SIZE_CI))
                self.assertTrue(m.timing.startswith("issued: "), m.timing)
                self.assertIn("the callable waits for the GPU", m.timing)
                self.assertIn("not only GPU work", m.timing)
                self.assertEqual(len(m.samples), 40)

    def test_check_outputs(self):
        from perfgate_harness.check import Mismatch, check_outputs
        x = torch.randn(3 << 20, device="cuda")
        check_outputs(x, x.clone())
        check_outputs((x.half(),), [x.half() * (1 + 1e-3)])
        y = x.clone()
        y[5] += 1
        with self.assertRaisesRegex(Mismatch, r"element 5 is .*1 elements wrong"):
            check_outputs(x, y)
        with self.assertRaisesRegex(Mismatch, "shape"):
            check_outputs(x, x[:10])

    def test_do_bench(self):
        from perfgate_harness import do_bench
        a, b = torch.rand(1 << 24, device="cuda"), torch.rand(1 << 24, device="cuda")
        ms = do_bench(lambda: torch.add(a, b), fast=True)
        self.assertTrue(0.005 < ms < 5, ms)

    def test_run_spec(self):
        try:
            import triton  # noqa: F401
        except ImportError:
            self.skipTest("no triton")
        from perfgate_harness.runspec import run_spec
        mod = os.path.join(ROOT, "examples", "python", "add_triton.py")
        spec = {"suite": "t", "name": "triton_add", "module": mod, "function": "triton_add",
                "reference": {"name": "torch_add", "module": mod, "function": "torch_add"},
                "modes": ["cold", "batch"], "fast": True,
                "cases": [{"params": {"n": "65536"}, "dtype": "fp16", "bytes": 3 * 65536 * 2, "flops": 65536}]}
        bs, env = run_spec(spec, log=open(os.devnull, "w"))
        self.assertEqual([b["name"] for b in bs], ["triton_add/dtype=fp16/n=65536/mode=cold", "triton_add/dtype=fp16/n=65536/mode=batch",
                                                    "torch_add/dtype=fp16/n=65536/mode=cold", "torch_add/dtype=fp16/n=65536/mode=batch"])
        for b in bs:
            self.assertNotIn("error", b, b.get("error"))
        self.assertIn("speedup_vs_torch_add", bs[0]["metrics"])
        self.assertIn("gpu", env)
        spec["reference"]["function"] = "triton_add"
        spec["function"] = "torch_add"
        spec["cases"][0]["params"]["n"] = "1000"  # both fine: a wrong one is below
        bs, _ = run_spec(spec, log=open(os.devnull, "w"))
        self.assertFalse(any("error" in b for b in bs))

    def test_wrong_result_is_an_error_benchmark(self):
        from perfgate_harness.runspec import run_spec
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "perfgate_wrong.py")
        with open(path, "w") as f:
            f.write("import torch\n"
                    "def good(n, dtype):\n    x = torch.ones(n, device='cuda', dtype=dtype)\n    return lambda: x * 2\n"
                    "def bad(n, dtype):\n    x = torch.ones(n, device='cuda', dtype=dtype)\n    return lambda: x * 3\n")
        spec = {"suite": "w", "name": "bad", "module": path, "function": "bad",
                "reference": {"name": "good", "module": path, "function": "good"}, "modes": ["cold"], "fast": True,
                "cases": [{"params": {"n": "1024"}, "dtype": "fp32"}]}
        bs, _ = run_spec(spec, log=open(os.devnull, "w"))
        self.assertRegex(bs[0]["error"], r"wrong result: output 0 element 0 is 3, want 2")
        self.assertNotIn("error", bs[1])


if __name__ == "__main__":
    unittest.main()
