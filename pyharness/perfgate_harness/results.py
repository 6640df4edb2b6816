"""Results v1 (docs/results-format.md) from measurements: the benchmark entries and the file.

to_benchmark mirrors kernels/suite/results.go's ToBenchmark and addDerived: the same
clock filter, metric names and info keys, so a Python benchmark reads like a
built-in one in every report. Pure: no torch, no clock except the run's
start time, which the caller may pass.
"""

import datetime
import json
import os
import socket
import tempfile
import uuid

from .sampling import CLOCK_FLOOR, MS, clock_filter, go_duration, many_drops, median, quantile, rel_std, round_sample

SCHEMA = "perfgate.results/v1"


def benchmark_name(op, params, mode):
    """Return op/k=v/.../mode=MODE with the parameters in key order, as kernels/suite's Case.Name."""
    parts = [op] + ["%s=%s" % (k, params[k]) for k in sorted(params)] + ["mode=" + mode]
    return "/".join(parts)


def add_summary(metrics, samples):
    """Add mean, median, min, max, p95, p99 and std (n-1) of samples, in µs (kernels' addSummary)."""
    if not samples:
        return
    s = sorted(samples)
    mean = sum(s) / len(s)
    metrics.update(mean_us=mean, median_us=quantile(s, 0.5), min_us=s[0], max_us=s[-1],
                   p95_us=quantile(s, 0.95), p99_us=quantile(s, 0.99))
    if len(s) > 1:
        metrics["std_us"] = (sum((v - mean) ** 2 for v in s) / (len(s) - 1)) ** 0.5


def to_benchmark(suite, op, params, m, bytes_=0.0, flops=0.0, info=None, metrics=None, reference=""):
    """Turn a loop.Measurement into a results-v1 benchmark dict in µs.

    params are the case's parameters (strings); bytes_ and flops are per call
    (0: not reported); reference names the in-run reference ("suite/name").
    """
    b = {"suite": suite, "name": benchmark_name(op, params, m.mode), "params": dict(params, mode=m.mode),
         "unit": "us", "better": "lower", "samples": [], "metrics": dict(metrics or {}), "info": {}}
    kept, dropped, clk = clock_filter(m.samples, m.clocks, CLOCK_FLOOR)
    b["samples"] = kept
    inf = b["info"]
    inf["mode"] = m.mode
    if m.timing:
        inf["timing"] = m.timing
    inf["stop"] = m.stop
    inf["batch_n"] = str(m.batch_n)
    inf["warmup"] = go_duration((m.warmup + MS // 2) // MS * MS)
    if reference:
        inf["reference"] = reference
    inf.update(info or {})
    if m.throttle:
        inf["clock_event_reasons"] = ",".join(m.throttle)
    if m.pace is not None:
        m.pace.record(b["metrics"], inf, m.pace_mode)
    met = b["metrics"]
    met["samples_taken"] = float(len(m.samples))
    met["clock_drops"] = float(dropped)
    if m.block_timeouts > 0:
        met["block_timeouts"] = float(m.block_timeouts)
    if m.as_issued > 0:
        met["as_issued_us"] = round_sample(m.as_issued)
    if clk > 0:
        met["sm_clock_mhz"] = clk
    if many_drops(dropped, len(m.samples)):
        inf["clock_flag"] = "%d of %d samples taken below %.0f%% of the median SM clock (%.0f MHz) were dropped" % (
            dropped, len(m.samples), CLOCK_FLOOR * 100, clk)
    if not kept:
        b["error"] = "no samples left after dropping those taken at low SM clocks"
        return b
    _add_derived(met, kept, bytes_, flops)
    return b


def _add_derived(met, kept, bytes_, flops):
    med = median(kept)
    add_summary(met, kept)
    cv = rel_std(kept)
    if cv == cv:  # not NaN
        met["cv"] = cv
    if bytes_ > 0 and med > 0:
        met["gbps"] = bytes_ / (med * 1e-6) / 1e9
    if flops > 0 and med > 0:
        met["tflops"] = flops / (med * 1e-6) / 1e12
    if med > 0:
        met["ops_per_s"] = 1e6 / med


def error_benchmark(suite, op, params, mode, err):
    """Return a benchmark that produced no timing, with the reason."""
    return {"suite": suite, "name": benchmark_name(op, params, mode), "params": dict(params, mode=mode),
            "unit": "us", "better": "lower", "samples": [], "error": str(err) or type(err).__name__}


def add_ref_speedups(bs):
    """Set speedup_vs_<op> on every benchmark whose info.reference names a benchmark of bs (kernels.addRefSpeedups)."""
    med = {b["suite"] + "/" + b["name"]: b["metrics"]["median_us"] for b in bs
           if not b.get("error") and b.get("metrics", {}).get("median_us", 0) > 0}
    for b in bs:
        ref = b.get("info", {}).get("reference", "")
        if not ref or ref not in med or b.get("error") or b["metrics"].get("median_us", 0) <= 0:
            continue
        op = ref.split("/", 1)[1].split("/", 1)[0]
        b["metrics"]["speedup_vs_" + op] = med[ref] / b["metrics"]["median_us"]


def new_run(env=None, started=None, **fields):
    """Return a run block: a fresh id, the local defaults of a run outside CI, fields on top."""
    started = started or datetime.datetime.now(datetime.timezone.utc)
    run = {"id": str(uuid.uuid4()), "repo": "local/local", "commit": "0" * 40, "branch": "local",
           "event": "local", "testbed": socket.gethostname() or "local",
           "started_at": started.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if env:
        run["env"] = {str(k): str(v) for k, v in env.items()}
    run.update(fields)
    return run


def write_results(path, run, benchmarks):
    """Write a results-v1 document atomically (temporary file, fsync, rename)."""
    doc = {"schema": SCHEMA, "run": run, "benchmarks": benchmarks}
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".perfgate-", suffix=".json", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, allow_nan=False, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
