"""launchpath.py: which part of the Python side makes a small PTX kernel slower than the Go harness?

docs/python.md ("Agreement with the Go harness") left a gap: the same PTX,
grid and buffers, timed as a CUDA graph of N launches behind a blocking
kernel, reads 0.1-0.25 us a launch more in the Python harness than in the Go
harness (4-7% of a 1M-element launch, 14% of a 4K one). This script times
that work in one process, one way (VARIANT), through ctypes and the driver
API, the Go harness's method step for step (kernels/driver_cuda.go,
kernels/device/timer.go, kernels/cu/harness.cu's pg_block on a host flag):

  own          no torch in the process; a context of its own (cuCtxCreate)
  primary      no torch; the device's primary context (the Go harness's)
  torchimport  `import torch` first (no CUDA work by torch), then as primary
  torchctx     torch initialised and holding the primary context; our own
               non-blocking stream, buffers from cuMemAlloc, graph captured
               and instantiated by the driver API (thread-local, no flags)
  ctx_autofree as torchctx, instantiated with AUTO_FREE_ON_LAUNCH (torch's flag)
  torchgraph   as torchctx, but captured by torch.cuda.graph on torch's
               current stream, as the Python harness does
  tg_nb        as torchgraph, on a non-blocking torch stream, not the legacy one
  tg_tl        as torchgraph, captured in thread-local mode (the Go harness's)
  tg_raw       captured by torch.cuda.graph (keep_graph), instantiated with no
               flags and launched by the driver API, not torch's replay()
  tg_raw_af    as tg_raw, instantiated with AUTO_FREE_ON_LAUNCH
  tg_raw_nb    as tg_raw, but held and launched on our own non-blocking stream
  tg_ext       torch.cuda.graph capturing on our own stream (ExternalStream),
               instantiated and launched by the driver API on it
  ctx_legacy   as torchctx, but held and launched on the legacy stream
  ctx_sidewarm as torchctx, after one launch on a torch side stream (the
               warm-up torch.cuda.graph asks for)
  ctx_pool     as torchctx, after torch.cuda.Stream() (torch's stream pools made)
  ctx_hiprio   as torchctx, with one stream of the greatest priority made
  ctx_many     as torchctx, with 64 more streams of default priority made
  ctx_many_launch as ctx_many, after one launch on one of them
  ctx_warm_same as torchctx, after one launch on our stream (the Go harness's
               warm-up: the first launch on the stream that is timed)
  ctx_warm_same_other as ctx_warm_same, then one launch on another stream
  ctx_eager_other as ctx_many_launch, with CUDA_MODULE_LOADING=EAGER
  product      the Python harness as a python: suite runs it: bench.measure
               with the default rule, cold then batch, CUDA_DEVICE_MAX_CONNECTIONS=1
  ctx_legacy_warm as ctx_legacy, after one launch on the legacy stream
  ctx_legacy_many as ctx_legacy, after 2,000 launches on the legacy stream
  ctx_nb_many  as torchctx, after 2,000 launches on our stream
  harness_nb, product_nb  harness and product with a non-blocking stream of
               our own current in torch (torch.cuda.set_stream), not the legacy one
  tgc_clean    captured by torch (capture_begin/end on a stream of ours),
               replayed by torch on our stream, no launch elsewhere
  tgc_raw_clean as tgc_clean (keep_graph), instantiated with no flags and
               launched by the driver API on our stream
  pad_K        as torchctx, after K MiB more allocated before the works' buffers
               (their placement moves; nothing else changes)
  ctx_sleepblock as torchctx, held behind torch.cuda._sleep, not pg_block
  ctx_torchbuf as torchctx, buffers from torch's caching allocator
  VARIANT_c1   any of these with CUDA_DEVICE_MAX_CONNECTIONS=1 (the harnesses' setting)
  harness_memset the Python harness, flushing L2 with cuMemsetD32Async (the
               Go harness's flush) instead of torch's fill_
  harness      the Python harness itself: perfgate_harness.cuda.TorchTimer
               over gokernels.py's callables (its own block, events, graph)

    python3 launchpath.py VARIANT OUT.jsonl

Each line of OUT.jsonl: variant, work, mode, N, the median per-launch time
(us) of SAMPLES samples, the PTX digest. launchpath.sh runs every variant in
separate processes, twice, with the Go harness beside them, and tabulates.
"""

import ctypes
import glob
import hashlib
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
NAME, OUTFILE = sys.argv[1], sys.argv[2]
VARIANT = NAME[:-3] if NAME.endswith("_c1") else NAME  # VARIANT_c1: VARIANT with CUDA_DEVICE_MAX_CONNECTIONS=1
if NAME.endswith("_c1"):
    os.environ["CUDA_DEVICE_MAX_CONNECTIONS"] = "1"
SAMPLES, WARM = 200, 20
WORKS = [("add/n=4096", 4096, 800), ("add/n=1048576", 1 << 20, 300), ("saxpy/n=1048576/unroll=1", 1 << 20, 300)]

torch = None
if VARIANT == "ctx_eager_other":
    os.environ["CUDA_MODULE_LOADING"] = "EAGER"
if VARIANT.startswith("product"):
    os.environ["CUDA_DEVICE_MAX_CONNECTIONS"] = "1"  # as python3 -m perfgate_harness sets it
TORCH_CAPTURE = ("torchgraph", "tg_nb", "tg_tl", "tg_raw", "tg_raw_af", "tg_raw_nb", "tg_ext")
RAW = ("tg_raw", "tg_raw_af", "tg_raw_nb", "tg_ext")
if VARIANT != "own" and VARIANT != "primary":
    import torch  # noqa: F811

cuda = ctypes.CDLL("libcuda.so.1")
P = ctypes.c_void_p


def ck(rc, what):
    if rc != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(rc, ctypes.byref(name))
        raise RuntimeError("%s: %s (%d)" % (what, name.value, rc))


def nvrtc():
    for n in ["libnvrtc.so.13", "libnvrtc.so.12"] + sorted(glob.glob("/usr/local/cuda/lib64/libnvrtc.so*"), reverse=True):
        try:
            return ctypes.CDLL(n)
        except OSError:
            pass
    raise OSError("no libnvrtc")


def ptx_of(src, name, opts):
    lib = nvrtc()
    prog = P()
    ck(lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), name.encode(), 0, None, None), "nvrtcCreateProgram")
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    if lib.nvrtcCompileProgram(prog, len(opts), arr) != 0:
        n = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value)
        lib.nvrtcGetProgramLog(prog, log)
        raise RuntimeError(log.value.decode(errors="replace"))
    n = ctypes.c_size_t()
    ck(lib.nvrtcGetPTXSize(prog, ctypes.byref(n)), "nvrtcGetPTXSize")
    buf = ctypes.create_string_buffer(n.value)
    ck(lib.nvrtcGetPTX(prog, buf), "nvrtcGetPTX")
    return buf.raw.rstrip(b"\0")


def digest(ptx):
    lines = [ln.split("//", 1)[0].strip() for ln in ptx.decode(errors="replace").splitlines()]
    return hashlib.sha256("\n".join(ln for ln in lines if ln).encode()).hexdigest()[:12]


def source(name):
    common = open(os.path.join(ROOT, "kernels", "cu", "common.cu")).read()
    return common + "\n#line 1 \"" + name + ".cu\"\n" + open(os.path.join(ROOT, "kernels", "cu", name + ".cu")).read()


# --- context -----------------------------------------------------------------
ck(cuda.cuInit(0), "cuInit")
dev = ctypes.c_int()
ck(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
ctx = P()
if VARIANT == "own":
    ck(cuda.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev), "cuCtxCreate")
elif VARIANT in ("primary", "torchimport"):
    ck(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    ck(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
else:
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    ck(cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
major, minor = ctypes.c_int(), ctypes.c_int()
ck(cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, dev), "cc major")
ck(cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev), "cc minor")
arch = "--gpu-architecture=compute_%d%d" % (major.value, minor.value)

cuda.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
cuda.cuMemsetD32Async.argtypes = [ctypes.c_uint64, ctypes.c_uint, ctypes.c_size_t, P]
cuda.cuMemsetD32_v2.argtypes = [ctypes.c_uint64, ctypes.c_uint, ctypes.c_size_t]
cuda.cuLaunchKernel.argtypes = [P] + [ctypes.c_uint] * 7 + [P, P, P]
cuda.cuGraphLaunch.argtypes = [P, P]
cuda.cuEventRecord.argtypes = [P, P]
elapsed_fn = getattr(cuda, "cuEventElapsedTime", None) or cuda.cuEventElapsedTime_v2  # the Go harness's (12.8 headers)
elapsed_fn.argtypes = [ctypes.POINTER(ctypes.c_float), P, P]


TORCH_BUFS = []


def alloc(nbytes):
    if VARIANT == "ctx_torchbuf":
        TORCH_BUFS.append(torch.empty(nbytes // 4, device="cuda"))
        return TORCH_BUFS[-1].data_ptr()
    p = ctypes.c_uint64()
    ck(cuda.cuMemAlloc_v2(ctypes.byref(p), nbytes), "cuMemAlloc")
    return p.value


def load(ptx):
    mod = P()
    ck(cuda.cuModuleLoadData(ctypes.byref(mod), ptx + b"\0"), "cuModuleLoadData")
    return mod


def fn(mod, name):
    f = P()
    ck(cuda.cuModuleGetFunction(ctypes.byref(f), mod, name.encode()), "cuModuleGetFunction " + name)
    return f


class Args:
    """Args holds a kernel's argument slots and the pointer array cuLaunchKernel reads."""

    def __init__(self, *vals):
        self.vals = list(vals)
        self.ptrs = (P * len(vals))(*[ctypes.cast(ctypes.byref(v), P) for v in self.vals])


if VARIANT == "tg_nb":
    torch_stream = torch.cuda.Stream()
    torch.cuda.set_stream(torch_stream)
    stream = P(torch_stream.cuda_stream)
elif VARIANT in ("torchgraph", "tg_tl", "tg_raw", "tg_raw_af") or VARIANT.startswith(("harness", "ctx_legacy")):
    stream = P(torch.cuda.current_stream().cuda_stream)
else:
    stream = P()
    ck(cuda.cuStreamCreate(ctypes.byref(stream), 1), "cuStreamCreate")  # CU_STREAM_NON_BLOCKING
EXTRA = []
if VARIANT == "ctx_pool":
    EXTRA.append(torch.cuda.Stream())
elif VARIANT == "ctx_hiprio":
    least, greatest = ctypes.c_int(), ctypes.c_int()
    ck(cuda.cuCtxGetStreamPriorityRange(ctypes.byref(least), ctypes.byref(greatest)), "cuCtxGetStreamPriorityRange")
    hi = P()
    ck(cuda.cuStreamCreateWithPriority(ctypes.byref(hi), 1, greatest), "cuStreamCreateWithPriority")
    EXTRA.append(hi)
elif VARIANT.startswith("ctx_many") or VARIANT in ("ctx_warm_same_other", "ctx_eager_other"):
    for _ in range(64):
        e = P()
        ck(cuda.cuStreamCreate(ctypes.byref(e), 1), "cuStreamCreate")
        EXTRA.append(e)
capture_stream = P()
ck(cuda.cuStreamCreate(ctypes.byref(capture_stream), 1), "cuStreamCreate")
if VARIANT in ("tgc_clean", "tgc_raw_clean", "ctx_sleepblock"):
    torch.cuda.set_stream(torch.cuda.ExternalStream(stream.value))
start, stop = P(), P()
ck(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
ck(cuda.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
flush_words = (100 << 20) // 4  # the H100's 50 MB L2 twice, as the Go harness's max(2 * L2, 64 MiB)
flush = alloc(flush_words * 4)
host = P()
ck(cuda.cuMemHostAlloc(ctypes.byref(host), 8, 0x2 | 0x1), "cuMemHostAlloc")  # DEVICEMAP | PORTABLE
flags = (ctypes.c_int * 2).from_address(host.value)
devflags = ctypes.c_uint64()
ck(cuda.cuMemHostGetDevicePointer_v2(ctypes.byref(devflags), host, 0), "cuMemHostGetDevicePointer")
block_fn = fn(load(ptx_of(source("harness"), "harness.cu", [arch, "--std=c++17"])), "pg_block")
block_args = Args(ctypes.c_uint64(devflags.value), ctypes.c_uint64(devflags.value + 4), ctypes.c_uint64(50_000_000))


GRAPHS = []  # (variant's graph, n) kept for describe()


def instantiate(graph, flags):
    exe = P()
    ck(cuda.cuGraphInstantiateWithFlags(ctypes.byref(exe), graph, ctypes.c_ulonglong(flags)), "cuGraphInstantiate")
    return lambda: ck(cuda.cuGraphLaunch(exe, stream), "cuGraphLaunch")


def capture(launch, n):
    """Return a replay of n launches captured into one graph."""
    if VARIANT in TORCH_CAPTURE:
        g = torch.cuda.CUDAGraph(keep_graph=VARIANT in RAW)
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            launch(P(side.cuda_stream))
        torch.cuda.synchronize()
        on = torch.cuda.ExternalStream(stream.value) if VARIANT == "tg_ext" else None
        with torch.cuda.graph(g, stream=on, capture_error_mode="thread_local" if VARIANT == "tg_tl" else "global"):
            s = P(torch.cuda.current_stream().cuda_stream)
            for _ in range(n):
                launch(s)
        torch.cuda.synchronize()
        if VARIANT not in RAW:
            return g.replay
        raw = P(g.raw_cuda_graph())
        GRAPHS.append((raw, n, g))
        return instantiate(raw, 1 if VARIANT == "tg_raw_af" else 0)
    if VARIANT in ("tgc_clean", "tgc_raw_clean"):
        launch(stream)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph(keep_graph=VARIANT == "tgc_raw_clean")
        with torch.cuda.stream(torch.cuda.ExternalStream(capture_stream.value)):
            g.capture_begin()
            for _ in range(n):
                launch(capture_stream)
            g.capture_end()
        torch.cuda.synchronize()
        if VARIANT == "tgc_raw_clean":
            raw = P(g.raw_cuda_graph())
            GRAPHS.append((raw, n, g))
            return instantiate(raw, 0)
        GRAPHS.append((None, n, g))
        return g.replay
    if VARIANT == "ctx_sidewarm":
        side = torch.cuda.Stream()
        launch(P(side.cuda_stream))
        torch.cuda.synchronize()
    if VARIANT.startswith("ctx_warm_same"):
        launch(stream)
        ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
    if VARIANT in ("ctx_many_launch", "ctx_warm_same_other", "ctx_eager_other"):
        launch(EXTRA[7])
        ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
    if VARIANT in ("ctx_legacy_warm", "ctx_legacy_many", "ctx_nb_many"):
        for _ in range(1 if VARIANT == "ctx_legacy_warm" else 2000):
            launch(stream)
        ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
    on = capture_stream if VARIANT.startswith("ctx_legacy") else stream
    ck(cuda.cuStreamBeginCapture_v2(on, 1), "cuStreamBeginCapture")  # CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
    for _ in range(n):
        launch(on)
    graph = P()
    ck(cuda.cuStreamEndCapture(on, ctypes.byref(graph)), "cuStreamEndCapture")
    GRAPHS.append((graph, n, None))
    return instantiate(graph, 1 if VARIANT == "ctx_autofree" else 0)


def describe(graph):
    """Return a captured graph's node count, node types and its first kernel node's launch attributes (hex)."""
    count = ctypes.c_size_t()
    ck(cuda.cuGraphGetNodes(graph, None, ctypes.byref(count)), "cuGraphGetNodes")
    nodes = (P * count.value)()
    ck(cuda.cuGraphGetNodes(graph, nodes, ctypes.byref(count)), "cuGraphGetNodes")
    types, attrs = {}, {}
    for nd in nodes:
        t = ctypes.c_int()
        ck(cuda.cuGraphNodeGetType(P(nd), ctypes.byref(t)), "cuGraphNodeGetType")
        types[t.value] = types.get(t.value, 0) + 1
        if t.value == 0 and not attrs:  # CU_GRAPH_NODE_TYPE_KERNEL
            for a in range(1, 16):
                v = (ctypes.c_ubyte * 64)()
                if cuda.cuGraphKernelNodeGetAttribute(P(nd), a, v) == 0:
                    attrs[a] = bytes(v).rstrip(b"\0").hex()
    edges, etypes = ctypes.c_size_t(), {}
    fn_edges = getattr(cuda, "cuGraphGetEdges_v2", None)
    if fn_edges is not None:
        fn_edges(graph, None, None, None, ctypes.byref(edges))
        frm, to, data = (P * edges.value)(), (P * edges.value)(), (ctypes.c_ubyte * (8 * edges.value))()
        if fn_edges(graph, frm, to, data, ctypes.byref(edges)) == 0:
            for i in range(edges.value):
                key = bytes(data[8 * i:8 * i + 3]).hex()  # from_port, to_port, type
                etypes[key] = etypes.get(key, 0) + 1
    else:
        cuda.cuGraphGetEdges(graph, None, None, ctypes.byref(edges))
    return {"nodes": count.value, "types": types, "edges": edges.value, "edge_data": etypes, "kernel_attrs": attrs}


flush_value = [0]


def held(replay, cold):
    """Time one replay behind pg_block (after an L2 flush when cold), as kernels/device/timer.go: ns."""
    for _ in range(4):
        flags[0], flags[1] = 0, 0
        if cold:
            flush_value[0] += 1
            ck(cuda.cuMemsetD32Async(flush, flush_value[0], flush_words, stream), "flush")
        if VARIANT == "ctx_sleepblock":
            torch.cuda._sleep(400_000)  # about 200 us at 1.98 GHz, longer than issuing a replay takes
        else:
            ck(cuda.cuLaunchKernel(block_fn, 1, 1, 1, 1, 1, 1, 0, stream, block_args.ptrs, None), "pg_block")
        ck(cuda.cuEventRecord(start, stream), "record")
        replay()
        ck(cuda.cuEventRecord(stop, stream), "record")
        flags[0] = 1
        ck(cuda.cuEventSynchronize(stop), "sync")
        if flags[1]:
            continue
        ms = ctypes.c_float()
        ck(elapsed_fn(ctypes.byref(ms), start, stop), "elapsed")
        return ms.value * 1e6
    raise RuntimeError("the block timed out")


def kernels():
    """Yield (work, n_launches, launch(stream), ptx digest) for the three works."""
    if VARIANT.startswith("pad_"):
        alloc(int(VARIANT[4:]) << 20)
    ew = ptx_of(source("elementwise"), "elementwise.cu", [arch, "--std=c++17"])
    add = fn(load(ew), "add_fp32")
    sx = ptx_of(open(os.path.join(ROOT, "examples", "kernels", "saxpy.cu")).read(), "saxpy.cu",
                [arch, "--std=c++17", "-DUNROLL=1"])
    saxpy = fn(load(sx), "saxpy")
    for work, n, reps in WORKS:
        if work.startswith("add"):
            a, b, c = alloc(4 * n), alloc(4 * n), alloc(4 * n)
            for p in (a, b):
                ck(cuda.cuMemsetD32_v2(p, 0x3F800000, n), "fill")
            args = Args(ctypes.c_uint64(a), ctypes.c_uint64(b), ctypes.c_uint64(c), ctypes.c_longlong(n))
            f, grid, dg = add, max((n // 4 + 255) // 256, 1), digest(ew)
        else:
            x, y = alloc(4 * n), alloc(4 * n)
            for p in (x, y):
                ck(cuda.cuMemsetD32_v2(p, 0x3F800000, n), "fill")
            args = Args(ctypes.c_uint64(x), ctypes.c_uint64(y), ctypes.c_float(2.0), ctypes.c_int(n))
            f, grid, dg = saxpy, (n + 255) // 256, digest(sx)

        def launch(s, f=f, grid=grid, args=args):
            ck(cuda.cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, s, args.ptrs, None), "cuLaunchKernel")
        yield work, reps, launch, dg


def harness_works():
    """Yield (work, reps, TorchTimer-with-fn, digest) through the Python harness and gokernels.py."""
    sys.path[:0] = [os.path.join(ROOT, "pyharness"), HERE]
    import gokernels
    from perfgate_harness.cuda import TorchTimer
    for work, n, reps in WORKS:
        f = gokernels.add(n) if work.startswith("add") else gokernels.saxpy(n, 1)
        t = None
        if not VARIANT.startswith("product"):
            t = TorchTimer(f)
            t.probe()
        key = [k for k in gokernels.PTX if k[0] == ("elementwise.cu" if work.startswith("add") else "saxpy.cu")]
        yield work, reps, t or f, digest(gokernels.PTX[key[-1]])


with open(OUTFILE, "a") as out:
    if VARIANT in ("harness_nb", "product_nb"):
        torch.cuda.set_stream(torch.cuda.ExternalStream(capture_stream.value))  # a non-blocking stream of ours
        stream = capture_stream
    if VARIANT.startswith(("harness", "product")):
        if VARIANT == "harness_memset":
            sys.path[:0] = [os.path.join(ROOT, "pyharness")]
            import perfgate_harness.cuda as hc

            def memset_flush(buf):
                hc._shared["flush_value"] = (hc._shared["flush_value"] + 1) & 0x7FFFFFFF
                ck(cuda.cuMemsetD32Async(buf.data_ptr(), hc._shared["flush_value"], buf.numel(),
                                         P(torch.cuda.current_stream().cuda_stream)), "flush")
            hc._flush_l2 = memset_flush
        for work, reps, t, dg in harness_works():
            if VARIANT.startswith("product"):
                from perfgate_harness import bench
                for mode in ("cold", "batch"):
                    m = bench.measure(t, mode)  # t is the callable itself here
                    out.write(json.dumps({"variant": NAME, "work": work, "mode": mode, "n": m.batch_n,
                                          "median_us": statistics.median(m.samples), "ptx": dg}) + "\n")
                continue
            for mode, n in (("batch", reps), ("cold", 1)):
                for _ in range(WARM):
                    t.held(n, mode == "cold")
                xs = [t.held(n, mode == "cold") / n / 1e3 for _ in range(SAMPLES)]
                out.write(json.dumps({"variant": NAME, "work": work, "mode": mode, "n": n,
                                      "median_us": statistics.median(xs), "ptx": dg}) + "\n")
    else:
        for work, reps, launch, dg in kernels():
            for mode, n in (("batch", reps), ("cold", 1)):
                replay = capture(launch, n)
                for _ in range(WARM):
                    held(replay, mode == "cold")
                xs = [held(replay, mode == "cold") / n / 1e3 for _ in range(SAMPLES)]
                line = {"variant": NAME, "work": work, "mode": mode, "n": n, "median_us": statistics.median(xs), "ptx": dg}
                if GRAPHS and GRAPHS[-1][0] is not None and mode == "batch":
                    line["graph"] = describe(GRAPHS[-1][0])
                out.write(json.dumps(line) + "\n")
print(VARIANT, "done")
