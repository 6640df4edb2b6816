"""Compares `run --devices all` on the two-GPU machine with one-GPU runs.

usage: python3 compare.py ALL.json GPU0.json GPU1.json
For each benchmark of the two-GPU run, the ratio of its median to the median
of the same benchmark run alone on the same GPU (by --devices 0 / --devices 1).
"""
import json
import statistics as st
import sys


def key(b):
    params = {k: v for k, v in b["params"].items() if k != "device"}
    return b["name"].split("/device=")[0], json.dumps(params, sort_keys=True)


def main(all_path, gpu0_path, gpu1_path):
    both = json.load(open(all_path))
    alone = {"0": json.load(open(gpu0_path)), "1": json.load(open(gpu1_path))}
    index = {d: {key(b): b for b in r["benchmarks"]} for d, r in alone.items()}
    ratios, uuids = [], {}
    for b in both["benchmarks"]:
        dev = str(b["params"]["device"])
        uuids.setdefault(dev, set()).add(b["info"]["gpu_uuid"])
        ref = index[dev].get(key(b))
        if ref is not None:
            ratios.append(st.median(b["samples"]) / st.median(ref["samples"]))
    ratios.sort()
    print("run.env.devices:", both["run"]["env"]["devices"])
    for dev, u in sorted(uuids.items()):
        print(f"device {dev}: {sum(1 for b in both['benchmarks'] if str(b['params']['device']) == dev)} benchmarks, gpu_uuid {sorted(u)}")
    n = len(ratios)
    print(f"median(two-GPU run) / median(alone on that GPU): n={n} min {ratios[0]:.3f} "
          f"p10 {ratios[n // 10]:.3f} median {st.median(ratios):.3f} p90 {ratios[9 * n // 10]:.3f} max {ratios[-1]:.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
