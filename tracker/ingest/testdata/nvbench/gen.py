#!/usr/bin/env python3
"""Writes nvbench JSON in the documented layout (nvbench cannot run here).

Layout from NVIDIA/nvbench nvbench/json_printer.cu, JSON file version 1.0.0:
meta/devices/benchmarks; each benchmark has axes and states; a state has
axis_values and summaries [{tag, name, hint, description, data: [{name,
type, value}]}], values written as strings. With --jsonbin, the summary
"nv/json/bin:nv/cold/sample_times" names "<json>-bin/<N>.bin", little-endian
float32 sample times in seconds. Tags from nvbench/detail/measure_cold.cu.
The numbers are synthetic. Run from this directory.
"""
import json, os, random, struct

random.seed(7)

def nv(name, typ, value):
    return {"name": name, "type": typ, "value": str(value)}

def summ(tag, name, hint, value, typ="float64"):
    s = {"tag": tag, "name": name, "description": name}
    if hint:
        s["hint"] = hint
    s["data"] = [nv("value", typ, value)]
    return s

def state(elements, t, mean_s, binfile=None, nsamples=0):
    sums = [
        summ("nv/cold/sample_size", "Samples", "sample_size", nsamples or 1000, "int64"),
        summ("nv/cold/time/cpu/mean", "CPU Time", "duration", mean_s * 1.4),
        summ("nv/cold/time/gpu/mean", "GPU Time", "duration", mean_s),
        summ("nv/cold/time/gpu/stdev/relative", "Noise", "percentage", 0.012),
        summ("nv/cold/bw/global/bytes_per_second", "GlobalMem BW", "byte_rate", elements * 8 / mean_s),
        summ("nv/batch/time/gpu/mean", "Batch GPU", "duration", mean_s * 0.93),
    ]
    if binfile:
        sums.append({"tag": "nv/json/bin:nv/cold/sample_times", "name": "Samples Times File", "hint": "file/sample_times",
                     "description": "Binary file containing sample times as little-endian float32.",
                     "data": [nv("filename", "string", binfile), nv("size", "int64", nsamples)], "hide": "Not needed in table."})
    return {"name": f"Device=0 T={t} Elements={elements}", "min_samples": 10, "min_time": 0.5, "max_noise": 0.005,
            "skip_time": -1.0, "timeout": 15.0, "device": 0, "type_config_index": 0,
            "axis_values": [nv("T", "string", t), nv("Elements", "int64", elements)],
            "summaries": sums, "is_skipped": False}

def write(path, with_bin):
    bins = 0
    states = []
    for elements, mean in ((1 << 20, 12.5e-6), (1 << 24, 180.0e-6)):
        binfile = None
        if with_bin:
            binfile = f"{path}-bin/{bins}.bin"
            os.makedirs(f"{path}-bin", exist_ok=True)
            with open(binfile, "wb") as f:
                for _ in range(20):
                    f.write(struct.pack("<f", mean * random.uniform(0.98, 1.04)))
            bins += 1
        states.append(state(elements, "F32", mean, binfile, 20 if with_bin else 0))
    skipped = {"name": "Device=0 T=F64 Elements=1048576", "device": 0, "type_config_index": 1,
               "axis_values": [nv("T", "string", "F64"), nv("Elements", "int64", 1 << 20)],
               "summaries": [], "is_skipped": True, "skip_reason": "fp64 disabled for this run"}
    doc = {"meta": {"argv": ["./bench", "--json", path] + (["--jsonbin"] if with_bin else []),
                    "version": {"json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"}}},
           "devices": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "sm_version": 900}],
           "benchmarks": [{"name": "copy", "index": 0, "min_samples": 10, "devices": [0],
                           "axes": [{"name": "T", "type": "type", "flags": "", "values": [
                               {"input_string": "F32", "description": "float", "is_active": True},
                               {"input_string": "F64", "description": "double", "is_active": True}]},
                               {"name": "Elements", "type": "int64", "flags": "pow2", "values": [
                                   {"input_string": "20", "description": "2^20 = 1048576", "value": 1 << 20},
                                   {"input_string": "24", "description": "2^24 = 16777216", "value": 1 << 24}]}],
                           "states": states + [skipped]}]}
    json.dump(doc, open(path, "w"), indent=2)

write("summary.json", False)
write("with_bin.json", True)
