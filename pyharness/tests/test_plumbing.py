"""The torch side's plumbing without a GPU: bench, the timer, the spec runner and __main__ on a stand-in torch.

The stand-in (tests/fake_torch) has a fake clock, so this checks the wiring,
names, errors and files, never a timing; tests/test_torch.py does that on a GPU.
It runs in a subprocess so that the stand-in never shadows a real torch.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

MODULE = """import torch
def f(n, dtype):
    return torch.work(n)
def twice(n, dtype):
    return torch.work(2 * n)
def wrong(n, dtype):
    w = torch.work(n)
    return lambda: (w(), torch.Tensor([1.0, 3.0]))[1]
def boom(n, dtype):
    raise ValueError("no such size")
def syncs(n, dtype):
    return torch.syncing_work(n)
def syncs_later(n, dtype):
    return torch.syncing_work(n, after=3)
def uncapturable(n, dtype):
    return torch.uncapturable_work(n)
"""


def spec(mod, function, reference):
    return {"suite": "p", "name": function, "module": mod, "function": function,
            "reference": {"name": reference, "module": mod, "function": reference} if reference else None,
            "modes": ["cold", "batch"], "fast": True,
            "cases": [{"params": {"n": "3"}, "dtype": "fp16", "bytes": 600, "flops": 3}]}


class Plumbing(unittest.TestCase):
    def run_spec(self, d, s, **extra):
        path, out = os.path.join(d, "spec.json"), os.path.join(d, "out.json")
        json.dump(s, open(path, "w"))
        if os.path.exists(out):
            os.remove(out)
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch") + os.pathsep + os.path.join(HERE, ".."))
        env.pop("CUDA_DEVICE_MAX_CONNECTIONS", None)
        env.update(extra)
        p = subprocess.run([sys.executable, "-m", "perfgate_harness", "run", path, out], env=env, capture_output=True, text=True)
        return p, (json.load(open(out)) if os.path.exists(out) else None)

    def test_specs(self):
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)

            p, doc = self.run_spec(d, spec(mod, "f", "twice"))
            self.assertEqual(p.returncode, 0, p.stderr)
            bs = doc["benchmarks"]
            self.assertEqual([b["name"] for b in bs], ["f/dtype=fp16/n=3/mode=cold", "f/dtype=fp16/n=3/mode=batch",
                                                       "twice/dtype=fp16/n=3/mode=cold", "twice/dtype=fp16/n=3/mode=batch"])
            self.assertEqual(bs[0]["metrics"]["speedup_vs_twice"], 2.0)
            self.assertEqual(bs[0]["metrics"]["gbps"], 600 / 3e-6 / 1e9)
            self.assertTrue(bs[1]["info"]["timing"].startswith("graph"))
            self.assertEqual(doc["run"]["env"]["gpu"], "Fake GPU")
            self.assertIn("p/f/dtype=fp16/n=3/mode=cold", p.stderr)  # the progress lines

            _, doc = self.run_spec(d, spec(mod, "wrong", "f"))
            self.assertRegex(doc["benchmarks"][0]["error"], r"^wrong result: output 0 element 1 is 3, want 2 ")
            self.assertNotIn("error", doc["benchmarks"][2])

            _, doc = self.run_spec(d, spec(mod, "boom", "f"))
            self.assertEqual(doc["benchmarks"][0]["error"], "boom(n=3, dtype=torch.float16) raised ValueError: no such size")

            p, doc = self.run_spec(d, spec(mod, "nothere", None))
            self.assertEqual((p.returncode, doc), (2, None))
            self.assertIn("has no function nothere", p.stderr)

    def test_one_hardware_queue(self):
        # As the Go harness: one queue unless the environment names a number, which is kept.
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)
            for extra, want in (({}, "1"), ({"CUDA_DEVICE_MAX_CONNECTIONS": "8"}, "8")):
                p, doc = self.run_spec(d, spec(mod, "f", None), **extra)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(doc["run"]["env"]["cuda_device_max_connections"], want)

    def test_how_a_callable_is_timed(self):
        """The timer's decision, as info.timing reports it: a graph when fn can be captured, stream launches
        behind the block when it cannot, and as issued (no block, the CPU's time included, said so) when
        one call waits for the GPU, whether the probe sees it or only the loop does."""
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)
            for function, want in [
                ("f", ["graph: every sample replays a CUDA graph"]),
                ("uncapturable", ["stream: stream launches behind a block; CUDA graph capture failed: cannot capture this"]),
                ("syncs", ["issued: CUDA events around the calls as Python issues them, no block, because one call did "
                           "not return before a 50ms block ran out: the callable waits for the GPU",
                           "a sample includes the CPU's time to issue the calls and to wait for the GPU, not only GPU work",
                           "; CUDA graph capture failed: CUDA error: operation not permitted when stream is capturing"]),
                ("syncs_later", ["issued: CUDA events around the calls as Python issues them, no block, because the "
                                 "block kept running out in the loop (the block ran out",
                                 "not only GPU work; CUDA graph capture failed"]),
            ]:
                with self.subTest(function):
                    sp = spec(mod, function, None)
                    if function == "syncs_later":
                        sp["modes"] = ["cold"]  # its first three calls queue (the probe's), the rest wait for the GPU
                    p, doc = self.run_spec(d, sp)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    for b in doc["benchmarks"]:
                        self.assertNotIn("error", b, b.get("error"))
                        timing = b["info"]["timing"]
                        for w in want:
                            self.assertIn(w, timing)
                        self.assertEqual(b["metrics"]["median_us"], 3.0, b["name"])  # the fake GPU's 3 µs a call
                        self.assertNotIn("block_timeouts", b["metrics"])

    def test_draws_in_processes(self):
        """A cold call under 5 µs (the fake's 2 and 4 µs) and stream launches are measured in 4 processes, a
        share of the samples each, and pooled, as the Go harness measures them in 4 CUDA contexts; a cold call
        of 5 µs or more, a graph-replayed batch and a --fast run are one draw."""
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)
            s = dict(spec(mod, "f", "twice"), fast=False, size="ci")
            s["cases"][0]["params"]["n"] = "2"
            p, doc = self.run_spec(d, s)
            self.assertEqual(p.returncode, 0, p.stderr)
            bs = {b["name"]: b for b in doc["benchmarks"]}
            self.assertEqual(list(bs), ["f/dtype=fp16/n=2/mode=cold", "f/dtype=fp16/n=2/mode=batch",
                                        "twice/dtype=fp16/n=2/mode=cold", "twice/dtype=fp16/n=2/mode=batch"])
            for name in ("f/dtype=fp16/n=2/mode=cold", "twice/dtype=fp16/n=2/mode=cold"):
                b = bs[name]
                self.assertEqual(b["metrics"]["draws"], 4.0, name)
                self.assertEqual(b["metrics"]["draw_spread_pct"], 0.0, name)  # the fake's draws all agree
                self.assertEqual(b["info"]["stop"], "4 processes, each max-samples 10 (rel-std 0.000%)", name)
                self.assertEqual(len(b["samples"]), 40, name)  # the ci cap of 40, 10 a draw
            self.assertEqual(bs["f/dtype=fp16/n=2/mode=cold"]["metrics"]["speedup_vs_twice"], 2.0)
            self.assertEqual(bs["f/dtype=fp16/n=2/mode=cold"]["metrics"]["median_us"], 2.0)
            for name in ("f/dtype=fp16/n=2/mode=batch", "twice/dtype=fp16/n=2/mode=batch"):
                self.assertNotIn("draws", bs[name]["metrics"], name)
            self.assertEqual(p.stderr.count("p/f/dtype=fp16/n=2/mode=cold"), 1, p.stderr)  # one line, pooled

            s["cases"][0]["params"]["n"] = "3"  # twice: 6 µs cold, one draw
            _, doc = self.run_spec(d, s)
            self.assertEqual(doc["benchmarks"][0]["metrics"]["draws"], 4.0)
            self.assertNotIn("draws", doc["benchmarks"][2]["metrics"])

            _, doc = self.run_spec(d, dict(spec(mod, "uncapturable", None), fast=False, size="ci"))
            for b in doc["benchmarks"]:  # stream launches: every mode
                self.assertEqual(b["metrics"]["draws"], 4.0, b["name"])

            _, doc = self.run_spec(d, dict(spec(mod, "f", None), fast=True, size="ci"))
            self.assertFalse(any("draws" in b["metrics"] for b in doc["benchmarks"]))

    def test_draw_failures(self):
        """A factory that fails in a draw's process makes its benchmarks errors, as in Go; a draw process that
        dies ends the draws, and the benchmarks keep the draws they have and say so."""
        with tempfile.TemporaryDirectory() as d:
            marker = os.path.join(d, "seen")
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE + (
                "import os\n"
                "MARK = %r\n"
                "def once(n, dtype):\n"
                "    if os.path.exists(MARK): raise ValueError('only once')\n"
                "    open(MARK, 'w').close()\n"
                "    return torch.work(n)\n"
                "if os.path.exists(MARK + '.die'): os._exit(3)\n"
                "def dies(n, dtype):\n"
                "    open(MARK + '.die', 'w').close()\n"
                "    return torch.work(n)\n") % marker)
            p, doc = self.run_spec(d, dict(spec(mod, "once", None), fast=False, size="ci"))
            self.assertEqual(p.returncode, 0, p.stderr)
            cold, batch = doc["benchmarks"]
            self.assertEqual(cold["error"], "draw 2 of 4, in a process of its own: ValueError: only once")
            self.assertNotIn("error", batch)

            p, doc = self.run_spec(d, dict(spec(mod, "dies", None), fast=False, size="ci"))
            self.assertEqual(p.returncode, 0, p.stderr)
            cold = doc["benchmarks"][0]
            self.assertEqual(cold["metrics"]["draws"], 1.0)
            self.assertEqual(len(cold["samples"]), 10)
            self.assertRegex(cold["info"]["draws"], r"^draws 2-4 not taken: the process of draw 2 failed: exit status 3")


if __name__ == "__main__":
    unittest.main()
