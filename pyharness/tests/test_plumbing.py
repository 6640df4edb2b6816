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
"""


def spec(mod, function, reference):
    return {"suite": "p", "name": function, "module": mod, "function": function,
            "reference": {"name": reference, "module": mod, "function": reference} if reference else None,
            "modes": ["cold", "batch"], "fast": True,
            "cases": [{"params": {"n": "3"}, "dtype": "fp16", "bytes": 600, "flops": 3}]}


class Plumbing(unittest.TestCase):
    def run_spec(self, d, s):
        path, out = os.path.join(d, "spec.json"), os.path.join(d, "out.json")
        json.dump(s, open(path, "w"))
        if os.path.exists(out):
            os.remove(out)
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch") + os.pathsep + os.path.join(HERE, ".."))
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


if __name__ == "__main__":
    unittest.main()
