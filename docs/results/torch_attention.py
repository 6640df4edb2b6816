"""PyTorch reference for perfgate's attention suite, on the same GPU in the same call.

For every shape, dtype and mask of the attention suite it times
  flash:   torch.nn.functional.scaled_dot_product_attention under
           sdpa_kernel(SDPBackend.FLASH_ATTENTION) (FlashAttention-2 in PyTorch);
  unfused: softmax((q·scale) @ kᵀ [masked_fill_ -inf above the diagonal]) @ v,
           the eager sequence perfgate's naive path corresponds to (scores
           materialised in the input dtype);
the way perfgate times (CUDA events; cold = a 2×L2 memset before each sample,
outside the timed region; batch = N back-to-back calls per event pair, N sized
so a sample lasts >= 1 ms), and a third way, graph: R calls captured in one
CUDA graph and replayed, one replay per event pair, per call; and a fourth,
queued: the batch mode's N eager calls queued behind a spinning kernel
(torch.cuda._sleep) and timed from an event recorded after it, so the events
see the eager kernels back to back on the GPU, the CPU's dispatch hidden —
what perfgate's batch mode does with its blocking kernel (a sample whose
spin ended before the calls were queued is retaken with a longer spin).
Eager calls of small shapes are bound by Python and dispatch on the CPU (tens
of µs); graph and queued show the GPU time alone, graph with the launch gaps
a CUDA graph saves, queued with the stream launches perfgate's batch mode has.
Inputs: torch.manual_seed(42), uniform [-2, 2).

PACE=R (environment) idles R × each sample's GPU time after it, as
perfgate's --pace R does (docs/gpu.md, "Noise"): at R = 1 sustained
tensor-core work stays under the H100's power limit. Default 0 (no idle).

`torch_attention.py gqa` times the grouped-query shape and the MHA prefill of
the same FLOPs instead (K and V with
H_kv heads, `enable_gqa=True`; the unfused sequence repeats K/V per group
first, as an eager model without GQA kernels does); their records carry H_kv.

Output: JSON lines in perfgate's sdpa-jsonl format (docs/config.md), one per
(shape, dtype, causal, backend, mode), with the raw samples in samples_us, so
`perfgate ingest --format sdpa-jsonl` keeps them and the gate can judge them.
"""
import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(1, 1, 128, 64), (8, 4, 128, 64), (32, 8, 128, 64), (32, 8, 256, 64), (8, 16, 2048, 128), (1, 32, 4096, 128)]
GQA_SHAPES = [(8, 16, 2048, 128), (4, 32, 2048, 128, 8)]  # B, H, S, d[, H_kv]: gqaPrefill and its MHA twin
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
PACE = float(os.environ.get("PACE", "0"))


def pace(us):
    if PACE > 0:
        time.sleep(PACE * us / 1e6)


def timed(fn, reps, flush=None):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    if flush is not None:
        flush.fill_(1.0)
    start.record()
    for _ in range(reps):
        fn()
    stop.record()
    stop.synchronize()
    us = start.elapsed_time(stop) * 1000
    pace(us)
    return us / reps  # per call


def graph_samples(fn, reps, n):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            fn()
    for _ in range(3):
        g.replay()
    xs = [timed(g.replay, 1) / reps for _ in range(n)]
    del g
    return xs


def queued_samples(fn, reps, n):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    cycles, xs, retakes = 4_000_000, [], 0
    while len(xs) < n and retakes < 20:
        torch.cuda._sleep(cycles)
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        spinning = not start.query()  # the spin outlasted the queueing
        stop.synchronize()
        pace(start.elapsed_time(stop) * 1000)
        if not spinning:
            cycles, retakes = cycles * 2, retakes + 1
            continue
        xs.append(start.elapsed_time(stop) * 1000 / reps)
    return xs, retakes


def measure(fn, flush, cold_n, batch_n):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    one = min(timed(fn, 1) for _ in range(5))
    n = max(1, int(1000 / max(one, 1e-3)) + 1)
    cold = [timed(fn, 1, flush) for _ in range(cold_n)]
    batch = [timed(fn, n) for _ in range(batch_n)]
    return cold, batch, n


def main():
    torch.manual_seed(42)
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device=dev)
    print(json.dumps({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0)}), file=sys.stderr)
    gqa = sys.argv[1:] == ["gqa"]
    for (b, h, s, d, *kvh) in (GQA_SHAPES if gqa else SHAPES):
        hkv = kvh[0] if kvh else h
        for dname, dt in DTYPES.items():
            q = (torch.rand(b, h, s, d, device=dev) * 4 - 2).to(dt)
            k, v = ((torch.rand(b, hkv, s, d, device=dev) * 4 - 2).to(dt) for _ in range(2))
            scale = 1 / math.sqrt(d)
            for causal in (False, True):
                mask = torch.ones(s, s, dtype=torch.bool, device=dev).triu(1) if causal else None

                def flash():
                    if hkv != h:
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

                def unfused():
                    kk, vv = k, v
                    if hkv != h:
                        kk, vv = k.repeat_interleave(h // hkv, dim=1), v.repeat_interleave(h // hkv, dim=1)
                    sc = (q * scale) @ kk.transpose(-2, -1)
                    if mask is not None:
                        sc.masked_fill_(mask, float("-inf"))
                    return torch.softmax(sc, dim=-1) @ vv

                ref = unfused().float()
                pairs = s * (s + 1) / 2 if causal else s * s
                flops = 4 * b * h * d * pairs
                for backend, fn in (("flash", flash), ("unfused", unfused)):
                    big = s >= 2048
                    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):  # the flash backend or an error, never a fallback
                        err = (fn().float() - ref).abs().max().item()
                        cold, batch, n = measure(fn, flush, 60 if big else 300, 20 if big else 60)
                        graph = graph_samples(fn, 2 if big else 20, 20 if big else 100)
                        queued, retakes = queued_samples(fn, n, 20 if big else 60)
                    for mode, xs in (("cold", cold), ("batch", batch), ("graph", graph), ("queued", queued)):
                        if not xs:
                            print(f"no queued samples for {(b, h, s, d, dname, causal, backend)}", file=sys.stderr)
                            continue
                        med = statistics.median(xs)
                        rec = {"B": b, "H": h, "S": s, "d": d, "precision": dname, "backend": backend,
                               **({"H_kv": hkv} if hkv != h else {}),
                               "causal": causal, "mode": mode, "samples_us": [round(x, 4) for x in xs],
                               "median_us": med, "tflops": flops / (med * 1e-6) / 1e12,
                               "calls_per_sample": {"cold": 1, "batch": n, "graph": 2 if big else 20, "queued": n}[mode], "max_abs_diff_vs_unfused": err, "pace_ratio": PACE,
                               **({"spin_retakes": retakes} if mode == "queued" else {})}
                        print(json.dumps(rec), flush=True)
            del q, k, v
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
