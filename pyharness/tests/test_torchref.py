"""run --reference torch's side of the harness without a GPU: the spec keys it uses and torchref's pure parts.

The spec keys (args, check, graph, a case's ops/launches/tolerance, a file of
specs) run on the stand-in torch (tests/fake_torch) in a subprocess, as
test_plumbing.py does; torchref's factories need a real torch and a GPU
(tests/test_torch.py's machine, docs/results/torchref/device.sh).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from perfgate_harness import torchref

HERE = os.path.dirname(os.path.abspath(__file__))

MODULE = """import torch
def op(n, dtype, op):
    return torch.work({"fast": n, "slow": 4 * n}[op])
def expect_ok(n, dtype, op):
    out = torch.Tensor([1.0, 2.0])
    return lambda: out
def expect_bad(n, dtype, op):
    out = torch.Tensor([1.0, 2.5])
    return lambda: out
def expect_boom(n, dtype, op):
    raise RuntimeError("no memory")
def ops(n, dtype, op):
    return torch.uncapturable_work(10 * n)
"""


def spec(mod, function, check, **kw):
    s = {"suite": "elementwise", "name": "torch." + function, "module": mod, "function": function, "args": {"op": "fast"},
         "modes": ["cold", "batch"], "fast": True, "cases": [{"params": {"n": "3"}, "dtype": "fp32"}]}
    if check:
        s["check"] = {"module": mod, "function": check}
    s.update(kw)
    return s


class Specs(unittest.TestCase):
    def run_doc(self, d, doc):
        path, out = os.path.join(d, "spec.json"), os.path.join(d, "out.json")
        json.dump(doc, open(path, "w"))
        if os.path.exists(out):
            os.remove(out)
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch") + os.pathsep + os.path.join(HERE, ".."))
        p = subprocess.run([sys.executable, "-m", "perfgate_harness", "run", path, out], env=env, capture_output=True, text=True)
        return p, (json.load(open(out)) if os.path.exists(out) else None)

    def test_check_args_and_specs(self):
        """args reach the factory but not the names; check compares without timing the expected output (no
        benchmark of it, no speedup); a file of specs runs each into one results file."""
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)
            slow = spec(mod, "op", "expect_ok", args={"op": "slow"})
            slow["name"] = "torch.slow"
            p, doc = self.run_doc(d, {"specs": [spec(mod, "op", "expect_ok"), slow]})
            self.assertEqual(p.returncode, 0, p.stderr)
            bs = doc["benchmarks"]
            self.assertEqual([b["name"] for b in bs], ["torch.op/dtype=fp32/n=3/mode=cold", "torch.op/dtype=fp32/n=3/mode=batch",
                                                       "torch.slow/dtype=fp32/n=3/mode=cold", "torch.slow/dtype=fp32/n=3/mode=batch"])
            self.assertEqual([b["metrics"]["median_us"] for b in bs], [3.0, 3.0, 12.0, 12.0])
            for b in bs:
                self.assertNotIn("reference", b["info"])
                self.assertFalse([k for k in b["metrics"] if k.startswith("speedup_vs_")], b["name"])

            _, doc = self.run_doc(d, spec(mod, "op", "expect_bad"))
            self.assertRegex(doc["benchmarks"][0]["error"], r"^wrong result: output 0 element 1 is 2, want 2.5 ")
            self.assertEqual(len(doc["benchmarks"]), 2)

            bad = spec(mod, "op", "expect_bad")
            bad["cases"][0]["tolerance"] = 0.5  # a case's tolerance: |2 - 2.5| <= 0.5 + 0.5·2.5
            _, doc = self.run_doc(d, bad)
            self.assertNotIn("error", doc["benchmarks"][0])

            _, doc = self.run_doc(d, spec(mod, "op", "expect_boom"))
            self.assertEqual(doc["benchmarks"][0]["error"],
                             "not checked: the expected output's factory expect_boom(n=3, dtype=torch.float32, op=fast) "
                             "raised RuntimeError: no memory")

            p, doc = self.run_doc(d, {"specs": []})
            self.assertEqual((p.returncode, doc), (2, None))
            nofn = spec(mod, "op", None)
            nofn["check"] = {"module": mod}
            p, _ = self.run_doc(d, nofn)
            self.assertEqual(p.returncode, 2)
            self.assertIn("check needs module and function", p.stderr)

    def test_ops_launches_graph(self):
        """A case's ops divide a call into µs per op; graph false times stream launches even when the
        callable could be captured; launches above 1 record the as-issued time per op."""
        with tempfile.TemporaryDirectory() as d:
            mod = os.path.join(d, "m.py")
            open(mod, "w").write(MODULE)
            s = spec(mod, "op", None, graph=False)
            s["cases"][0].update(ops=3, launches=3)
            p, doc = self.run_doc(d, s)
            self.assertEqual(p.returncode, 0, p.stderr)
            for b in doc["benchmarks"]:
                self.assertNotIn("error", b, b.get("error"))
                self.assertEqual(b["metrics"]["median_us"], 1.0, b["name"])  # 3 µs a call, 3 ops
                self.assertTrue(b["info"]["timing"].startswith("stream: "), b["info"]["timing"])
                self.assertIn("as_issued_us", b["metrics"])

            _, doc = self.run_doc(d, spec(mod, "op", None))  # the defaults: one op, captured
            for b in doc["benchmarks"]:
                self.assertEqual(b["metrics"]["median_us"], 3.0, b["name"])
                self.assertTrue(b["info"]["timing"].startswith("graph"), b["info"]["timing"])
                self.assertNotIn("as_issued_us", b["metrics"])

    def test_draws_of_a_file(self):
        """The draw-sensitive benchmarks of a file of specs take their draws together: 4 processes in all
        (the run's and three draws), each building every factory it draws, not 4 a spec."""
        with tempfile.TemporaryDirectory() as d:
            mod, calls = os.path.join(d, "m.py"), os.path.join(d, "calls")
            open(mod, "w").write(MODULE + "import os\ndef logged(n, dtype, op):\n"
                                 "    open(%r, 'a').write('%%d %%s\\n' %% (os.getpid(), op))\n"
                                 "    return torch.work(n)\n" % calls)
            a, b = (spec(mod, "logged", None, fast=False, size="ci", args={"op": op}) for op in ("a", "b"))
            b["name"] = "torch.other"
            a["cases"][0]["params"]["n"] = b["cases"][0]["params"]["n"] = "2"  # 2 µs cold: drawn
            p, doc = self.run_doc(d, {"specs": [a, b]})
            self.assertEqual(p.returncode, 0, p.stderr)
            for bm in doc["benchmarks"]:
                if bm["name"].endswith("mode=cold"):
                    self.assertEqual(bm["metrics"]["draws"], 4.0, bm["name"])
                    self.assertEqual(len(bm["samples"]), 40, bm["name"])
            lines = open(calls).read().split()
            pids = set(lines[0::2])
            self.assertEqual(len(pids), 4, lines)
            for pid in pids:  # each process built both specs' callables
                self.assertEqual(sorted(op for q, op in zip(lines[0::2], lines[1::2]) if q == pid), ["a", "b"], lines)

    def test_probe(self):
        """probe says which torch imports, or why none does, and exits 0 either way."""
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch") + os.pathsep + os.path.join(HERE, ".."))
        p = subprocess.run([sys.executable, "-m", "perfgate_harness", "probe"], env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout), {"torch": "0.0-fake", "cuda": True, "flash_attn": "", "error": ""})

        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "torch"))
            open(os.path.join(d, "torch", "__init__.py"), "w").write("raise ImportError('libcudart.so.12: not found')\n")
            env = dict(os.environ, PYTHONPATH=d + os.pathsep + os.path.join(HERE, ".."))
            p = subprocess.run([sys.executable, "-m", "perfgate_harness", "probe"], env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = json.loads(p.stdout)
        self.assertEqual((got["torch"], got["error"]), ("", "import torch: ImportError: libcudart.so.12: not found"))


class Labels(unittest.TestCase):
    def test_size_and_shape(self):
        """The labels kernels' benchmark names write (sizeLabel, rowShape.label, gemmShape.label) parse back."""
        for label, want in [("256", 256), ("4K", 4096), ("16M", 16 << 20), ("1G", 1 << 30), (4096, 4096)]:
            self.assertEqual(torchref.size(label), want, label)
        self.assertEqual(torchref.shape("16x2048x4096"), (16, 2048, 4096))
        self.assertEqual(torchref.shape("8192x32000"), (8192, 32000))
        with self.assertRaises(ValueError):
            torchref.size("16Q")


if __name__ == "__main__":
    unittest.main()


class GraphedKeepsInputs(unittest.TestCase):
    def test_replay_keeps_run_alive(self):
        """The callable _graphed returns holds run (and so the inputs its closure holds) as long as it lives: a
        captured graph reads them at their addresses, and freed, their memory goes to the next allocation."""
        import contextlib
        import gc
        import types
        import weakref

        class Stream:
            def wait_stream(self, other):
                pass

        class Graph:
            def replay(self):
                pass

            def capture_begin(self):
                pass

            def capture_end(self):
                pass

        cuda = types.SimpleNamespace(Stream=Stream, current_stream=Stream, stream=lambda s: contextlib.nullcontext(),
                                     CUDAGraph=Graph, synchronize=lambda: None)
        fake = types.SimpleNamespace(cuda=cuda)

        class Input:
            pass

        def factory():
            x, out = Input(), Input()

            def run():
                assert x is not None  # the closure holds x, as torchref's runs hold their inputs
                return out  # and returns an output that does not hold them
            return torchref._graphed(fake, run), weakref.ref(x)

        replay, alive = factory()
        self.assertTrue(replay.graph_how.startswith("captured by torch.cuda.CUDAGraph: "), replay.graph_how)
        gc.collect()
        self.assertIsNotNone(alive(), "the input was freed while the graph that reads it lives")
        replay()
        del replay
        gc.collect()
        self.assertIsNone(alive(), "the input outlived the graph")
