"""Running a .perfgate.yml python: suite from the spec perfgate writes (runner/python.go).

perfgate evaluates the sweep, the dtypes and the bytes/flops expressions and
passes every case as numbers, so nothing here evaluates an expression. A spec:

    {"suite": "triton", "name": "add", "module": "/abs/kernels/add.py", "function": "make_add",
     "reference": {"name": "torch_add", "module": "/abs/kernels/add.py", "function": "make_torch_add"},
     "tolerance": 0, "modes": ["cold", "batch"], "size": "", "fast": false, "max_time_ns": 0, "pace": "",
     "cases": [{"params": {"n": "1048576"}, "dtype": "fp16", "bytes": 6291456, "flops": 0}]}

The function is a factory: called with the case's parameters as keyword
arguments (numbers as int or float) and dtype= a torch dtype when the suite
lists dtypes, it returns the callable to time (no arguments). With a
reference, both callables' return values are compared (check.py) before
anything is timed; a mismatch makes the case's benchmarks errors.

perfgate's own specs (run --reference torch: runner/torchref) use four
more keys. "args": keyword arguments every case's factory gets beside its
parameters, not part of the benchmark names ({"op": "add"}). "check":
{"module", "function"}, a factory of the expected output with the same
arguments, compared as a reference's but never timed. "graph": false times
the callable as stream launches (a PyTorch eager loop), never captured.
A case's "ops" and "launches" (default 1): the operations one call makes
(samples are µs per op) and the kernel launches it queues; its
"tolerance", the spec's for that case. A file of
{"specs": [spec, ...]} runs each in turn into one results file.
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from . import results
from .check import Mismatch, check_outputs
from .draws import Drawn, measurement_dict, measurement_from

TORCH_DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64", "i32": "int32",
                "i8": "int8", "u8": "uint8", "i64": "int64", "i16": "int16"}


class SpecError(Exception):
    """A SpecError is a spec, module or function perfgate cannot use (exit 2)."""


def _number(v):
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


_modules = {}


def load_function(path, name):
    """Import the module at path (once) and return its callable name."""
    if path not in _modules:
        modname = "perfgate_user_" + str(len(_modules))
        spec = importlib.util.spec_from_file_location(modname, path)
        if spec is None or spec.loader is None:
            raise SpecError("%s: not a Python module" % path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod  # dataclasses and pickling look modules up here
        sys.path.insert(0, os.path.dirname(path))  # the module's own imports of its neighbours
        try:
            spec.loader.exec_module(mod)
        except FileNotFoundError as e:
            raise SpecError("%s: %s" % (path, e))
        _modules[path] = mod
    fn = getattr(_modules[path], name, None)
    if not callable(fn):
        raise SpecError("%s has no function %s" % (path, name))
    return fn


def _check_spec(spec):
    for key in ("suite", "name", "module", "function", "cases", "modes"):
        if key not in spec:
            raise SpecError("the spec has no %s" % key)
    ref = spec.get("reference")
    if ref is not None and not all(k in ref for k in ("name", "module", "function")):
        raise SpecError("the spec's reference needs name, module and function")
    chk = spec.get("check")
    if chk is not None and not all(k in chk for k in ("module", "function")):
        raise SpecError("the spec's check needs module and function")
    if not isinstance(spec.get("args", {}), dict):
        raise SpecError("the spec's args must be an object")


def run_specs(doc, log=sys.stderr):
    """Run a spec, or each spec of {"specs": [...]} in turn; return (benchmarks, env).

    The specs' draw-sensitive benchmarks take their other draws together,
    after the last spec: three processes for the file, not three a spec.
    """
    if "specs" not in doc:
        return run_spec(doc, log)
    if not isinstance(doc["specs"], list) or not doc["specs"]:
        raise SpecError("specs must be a non-empty list")
    out, env, pending = [], None, []
    for i, spec in enumerate(doc["specs"]):
        bs, e = run_spec(spec, log, pending, i)
        out.extend(bs)
        env = env or e
    if pending:
        take_draws(doc, pending, log)
        results.add_ref_speedups(out)  # a pooled benchmark was rewritten in place
    return out, env


def run_spec(spec, log=sys.stderr, defer=None, index=0):
    """Run every case of spec and return (benchmarks, env).

    With a list defer, the draw-sensitive benchmarks are left pending in it
    (tagged with the spec's index) for run_specs to draw, not drawn here.
    """
    import torch

    from .cuda import fingerprint
    from .sampling import rules_for

    _check_spec(spec)
    rule = rules_for(size=spec.get("size", ""), fast=spec.get("fast", False),
                     max_time=int(spec.get("max_time_ns", 0)), pace=spec.get("pace", ""))
    make = load_function(spec["module"], spec["function"])
    ref = spec.get("reference")
    make_ref = load_function(ref["module"], ref["function"]) if ref else None
    chk = spec.get("check")
    if chk and not ref:
        make_ref = load_function(chk["module"], chk["function"])
    suite, op, modes = spec["suite"], spec["name"], spec["modes"]
    out = []
    pending = None if spec.get("fast") else []  # draw-sensitive benchmarks (bench.bench), fast runs take one draw
    for i, case in enumerate(spec["cases"]):
        params, kwargs = _case_args(case, spec)
        first = len(pending or [])
        bs = _run_case(suite, op, params, kwargs, make, ref and ref["name"], make_ref, modes, rule, case, spec, pending)
        for p in (pending or [])[first:]:
            p["case"] = i
        for b in bs:
            if not any(p["b"] is b for p in pending or []):
                log.write(progress_line(b) + "\n")
                log.flush()
        out.extend(bs)
        torch.cuda.empty_cache()
    if pending and defer is not None:
        for p in pending:
            p["spec"] = index
        defer.extend(pending)
    elif pending:
        take_draws(spec, pending, log)
    results.add_ref_speedups(out)
    return out, fingerprint()


def _case_args(case, spec):
    """Return a case's parameters (strings, with dtype) and the factory's keyword arguments (with spec's args)."""
    import torch
    params = dict(case.get("params", {}))
    kwargs = {k: _number(v) for k, v in params.items()}
    if case.get("dtype"):
        params["dtype"] = case["dtype"]
        kwargs["dtype"] = getattr(torch, TORCH_DTYPES[case["dtype"]])
    kwargs.update(spec.get("args", {}))
    return params, kwargs


def take_draws(spec, pending, log):
    """Take the other draws of the pending benchmarks, each draw in a process of its own, and pool them.

    spec is the spec, or the file of specs (run_specs), they came from.
    A torch process has one CUDA context, so where the Go harness makes a
    context a draw, this harness starts a process (python3 -m
    perfgate_harness draw), one at a time, each measuring its share of every
    pending benchmark. A benchmark whose factory or measurement fails in a
    draw is an error, as in Go; a draw process that fails as a whole ends
    the draws, and the benchmarks say how many they got.
    """
    k = max(p["m"].draws for p in pending)
    pools, errs, note = [Drawn() for _ in pending], {}, ""
    for pool, p in zip(pools, pending):
        pool.add(p["m"])
    for d in range(1, k):
        todo = [i for i, p in enumerate(pending) if d < p["m"].draws and i not in errs]
        if not todo:
            break
        child = dict(spec, draws=[dict({"case": pending[i]["case"], "ref": pending[i]["ref"], "mode": pending[i]["mode"],
                                        "draws": pending[i]["m"].draws}, **({"spec": pending[i]["spec"]} if "spec" in pending[i] else {}))
                                  for i in todo])
        got, err = _draw_process(child)
        if err:
            note = "draws %d-%d not taken: the process of draw %d failed: %s" % (d + 1, k, d + 1, err)
            break
        for i, r in zip(todo, got):
            if "error" in r:
                errs[i] = "draw %d of %d, in a process of its own: %s" % (d + 1, pending[i]["m"].draws, r["error"])
            else:
                pools[i].add(measurement_from(r, pending[i]["mode"]))
    for i, p in enumerate(pending):
        suite, op, params, bytes_, flops, ref = p["args"]
        if i in errs:
            b = results.error_benchmark(suite, op, params, p["mode"], errs[i])
        else:
            b = results.to_benchmark(suite, op, params, pools[i].measurement(), bytes_, flops, reference=ref)
            pools[i].record(b["metrics"])
            if note:
                b["info"]["draws"] = note
        p["b"].clear()
        p["b"].update(b)
        log.write(progress_line(b) + "\n")
        log.flush()


def _draw_process(child):
    """Run one draw process on child (a spec with draws) and return (its measurements, None) or (None, why)."""
    pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (pkg_root, os.environ.get("PYTHONPATH", "")) if x))
    with tempfile.TemporaryDirectory(prefix="perfgate-draw-") as d:
        spec_path, out_path = os.path.join(d, "spec.json"), os.path.join(d, "draw.json")
        with open(spec_path, "w", encoding="utf-8") as f:
            json.dump(child, f)
        p = subprocess.run([sys.executable, "-m", "perfgate_harness", "draw", spec_path, out_path], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            with open(out_path, encoding="utf-8") as f:
                got = json.load(f)
        except (OSError, ValueError):
            got = None
    if p.returncode != 0 or not isinstance(got, list) or len(got) != len(child["draws"]):
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return None, "exit status %d: %s" % (p.returncode, last[:300])
    return got, None


def run_draws(doc):
    """Measure one draw of each of doc["draws"] in this process (python3 -m perfgate_harness draw); return a list.

    doc is a spec, or a file of specs whose draws name their spec's index.
    One callable is kept at a time (the draws come case by case), so a
    file's inputs are never all allocated at once.
    """
    from .bench import measure
    from .sampling import rules_for

    out, key, fn = [], None, None
    for want in doc["draws"]:
        spec = doc["specs"][want["spec"]] if "specs" in doc else doc
        _check_spec(spec)
        rule = rules_for(size=spec.get("size", ""), max_time=int(spec.get("max_time_ns", 0)), pace=spec.get("pace", ""))
        fnspec = spec["reference"] if want["ref"] else spec
        try:
            if key != (want.get("spec"), want["case"], bool(want["ref"])):
                key, fn = None, None
                _, kwargs = _case_args(spec["cases"][want["case"]], spec)
                fn = load_function(fnspec["module"], fnspec["function"])(**kwargs)
                key = (want.get("spec"), want["case"], bool(want["ref"]))
            how = _how(spec, spec["cases"][want["case"]], bool(want["ref"]))
            out.append(measurement_dict(measure(fn, want["mode"], rule.per_draw(want["draws"]), **how)))
        except Exception as e:  # noqa: BLE001 - reported per benchmark, as the first draw's failures are
            out.append({"error": "%s: %s" % (type(e).__name__, e)})
    return out


def _how(spec, case, ref):
    """Return how the case's callable is measured (bench's how): the reference's as a user suite's, always."""
    if ref:
        return {}
    return {"graph": bool(spec.get("graph", True)), "ops": int(case.get("ops", 1)), "launches": int(case.get("launches", 1))}


def _run_case(suite, op, params, kwargs, make, ref_op, make_ref, modes, rule, case, spec, pending=None):
    from .bench import bench

    def errors(name, err):
        return [results.error_benchmark(suite, name, params, m, err) for m in modes]
    try:
        fn = make(**kwargs)
    except Exception as e:  # noqa: BLE001 - the user's code failing is an error benchmark
        return errors(op, "%s(%s) raised %s: %s" % (spec["function"], _show(kwargs), type(e).__name__, e)) + \
            (errors(ref_op, "not run: %s failed" % spec["function"]) if ref_op else [])
    out, mismatch = [], None
    if make_ref is not None:
        rname = (spec.get("reference") or spec.get("check"))["function"]
        try:
            rfn = make_ref(**kwargs)
        except Exception as e:  # noqa: BLE001
            why = "%s(%s) raised %s: %s" % (rname, _show(kwargs), type(e).__name__, e)
            if not ref_op:
                return errors(op, "not checked: the expected output's factory " + why)
            return errors(op, "not checked: the reference failed") + errors(ref_op, why)
        try:
            check_outputs(fn(), rfn(), float(case.get("tolerance", spec.get("tolerance", 0))))
        except Mismatch as e:
            mismatch = str(e)
        except Exception as e:  # noqa: BLE001
            mismatch = "running %s and %s to compare them raised %s: %s" % (op, ref_op or rname, type(e).__name__, e)
        if not ref_op:
            rfn = None  # the expected output's inputs need not stay allocated while fn is timed
    if ref_op:
        first = len(pending or [])
        out = bench(rfn, suite, ref_op, params, modes, rule, case.get("bytes", 0), case.get("flops", 0), pending=pending)
        for p in (pending or [])[first:]:
            p["ref"] = True
    if mismatch:
        return errors(op, mismatch) + out
    first = len(pending or [])
    own = bench(fn, suite, op, params, modes, rule, case.get("bytes", 0), case.get("flops", 0), ref_op or "", pending=pending,
                how=_how(spec, case, False))
    for p in (pending or [])[first:]:
        p["ref"] = False
    return own + out


def _show(kwargs):
    return ", ".join("%s=%s" % (k, v) for k, v in kwargs.items())


def progress_line(b):
    """Return the one-line summary of a finished benchmark, as the Go harness prints it."""
    key = b["suite"] + "/" + b["name"]
    if b.get("error"):
        return "%-60s ERROR %s" % (key, b["error"])
    m = b["metrics"]
    s = "%-60s %10.3f us  cv %5.2f%%  n=%-6d" % (key, m["median_us"], 100 * m.get("cv", 0), len(b["samples"]))
    if "gbps" in m:
        s += "  %7.1f GB/s" % m["gbps"]
    return s + "  [%s]" % b["info"]["stop"]
