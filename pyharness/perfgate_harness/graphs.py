"""Capturing a callable into a CUDA graph the way the Go harness captures a kernel, when torch allows.

Measured on the H100 (docs/python.md, "Agreement with the Go harness"):
examples/kernels/saxpy.cu at 1M elements, replayed from a graph of 300
launches, ran 3.39-3.40 us a launch when the driver API captured the graph
(thread-local mode, as kernels/driver_cuda.go) and 3.57-3.59 when
torch.cuda.CUDAGraph captured the very same launches, whoever instantiated
and launched it afterwards: a graph identical in nodes, edges and launch
attributes. A real launch of the kernel on a second stream did the same to
a driver-captured graph; streams made and left idle, torch's pools included,
buffer placement, the block kernel and the legacy stream did not.

So capture() first captures through the driver, on a stream of its own
(torch.cuda.ExternalStream over a non-blocking stream of default priority),
after a warm call on the current stream, where the graph then replays: the
callable launches on no other stream. That is only safe when the calls
allocate nothing from torch's caching allocator (a preallocated output, a
Triton or ctypes launch): a block the allocator handed out during a capture
it does not know of would go back to its cache while the graph still
writes to it. When the calls allocate, fail, or there is no libcuda,
torch.cuda.CUDAGraph captures instead (its private pool keeps the graph's
memory); capture() says which (BY_DRIVER, BY_TORCH). torch is passed in,
so that the stand-in torch of the tests can be.
"""

import ctypes

_streams = {}  # by id(torch): the tests' stand-ins next to a real torch in one process


def _driver():
    """Return libcuda through ctypes, or None without it."""
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def capture_stream(torch):
    """Return the process's capture stream, made on first use."""
    if id(torch) not in _streams:
        torch.cuda.synchronize()  # makes torch's context current on this thread
        try:
            s, lib = ctypes.c_void_p(), _driver()
            if lib is None or lib.cuStreamCreate(ctypes.byref(s), 1) != 0:  # NON_BLOCKING, default priority
                raise OSError("no libcuda, or cuStreamCreate failed")
            _streams[id(torch)] = torch.cuda.ExternalStream(s.value)
        except (OSError, AttributeError):
            _streams[id(torch)] = torch.cuda.Stream()
    return _streams[id(torch)]


CAPTURE_MODE_THREAD_LOCAL = 1
BY_DRIVER = "captured by the driver API (no allocation in the calls), as the Go harness captures"
BY_TORCH = "captured by torch.cuda.CUDAGraph: %s"


class DriverGraph:
    """A DriverGraph is calls captured by the driver API, instantiated with no flags; it replays on the current stream."""

    def __init__(self, torch, lib, graph, exe):
        self.torch, self.lib, self.graph, self.exe = torch, lib, graph, exe

    def replay(self):
        rc = self.lib.cuGraphLaunch(self.exe, ctypes.c_void_p(self.torch.cuda.current_stream().cuda_stream))
        if rc != 0:
            raise RuntimeError("cuGraphLaunch failed: CUresult %d" % rc)

    def __del__(self):
        self.lib.cuGraphExecDestroy(self.exe)
        self.lib.cuGraphDestroy(self.graph)


def _allocations(torch):
    """Return how many blocks torch's caching allocator has handed out so far, or None when it does not say."""
    stats = getattr(torch.cuda, "memory_stats", None)
    return stats().get("allocation.all.allocated") if stats else None


def _driver_capture(torch, fn, n, cap):
    """Return (DriverGraph, last result, "") for n calls of fn captured by the driver on cap, or (None, None, why not)."""
    lib = _driver()
    if lib is None:
        return None, None, "no libcuda"
    before = _allocations(torch)
    if before is None or not hasattr(torch.cuda, "ExternalStream"):
        return None, None, "no torch.cuda.memory_stats or ExternalStream"
    handle = ctypes.c_void_p(cap.cuda_stream)
    if lib.cuStreamBeginCapture_v2(handle, CAPTURE_MODE_THREAD_LOCAL) != 0:
        return None, None, "cuStreamBeginCapture failed"
    res, err = None, ""
    try:
        with torch.cuda.stream(cap):
            for _ in range(n):
                res = fn()
    except Exception as e:  # noqa: BLE001 - any failure in a driver capture means: let torch capture
        err = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
    graph = ctypes.c_void_p()
    rc = lib.cuStreamEndCapture(handle, ctypes.byref(graph))
    allocated = _allocations(torch) != before
    why = err or ("cuStreamEndCapture failed" if rc != 0 else "") or ("the calls allocate" if allocated else "")
    exe = ctypes.c_void_p()
    if not why and lib.cuGraphInstantiateWithFlags(ctypes.byref(exe), graph, ctypes.c_ulonglong(0)) != 0:
        why = "cuGraphInstantiate failed"
    if why:
        if graph.value:
            lib.cuGraphDestroy(graph)
        res = None
        torch.cuda.synchronize()
        return None, None, why
    return DriverGraph(torch, lib, graph, exe), res, ""


def capture(torch, fn, n):
    """Capture n calls of fn into a graph; return it (it has replay()), the last call's result and how it was captured.

    One call runs first, on the current stream (lazy initialisation,
    workspaces); the capture runs on the capture stream, the driver's when
    the calls allocate nothing, else torch's (BY_DRIVER, BY_TORCH); the
    graph replays on whatever stream is current then. A capture failure
    raises, with the capture ended.
    """
    cap = capture_stream(torch)
    cur = torch.cuda.current_stream()
    fn()
    torch.cuda.synchronize()
    cap.wait_stream(cur)
    g, res, why = _driver_capture(torch, fn, n, cap)
    if g is not None:
        return g, res, BY_DRIVER
    g = torch.cuda.CUDAGraph()
    with torch.cuda.stream(cap):
        g.capture_begin()
        try:
            for _ in range(n):
                res = fn()
        finally:
            g.capture_end()
    torch.cuda.synchronize()
    return g, res, BY_TORCH % why
