"""A stand-in torch for test_plumbing.py: CUDA events on a fake clock, graphs that record and replay
fake kernels (torch.work(us)), list-backed tensors. Plumbing only: it times nothing real."""
import time as _t, contextlib, types
__version__ = "0.0-fake"
float32, float16, bfloat16, float64, int32, int8, uint8, int64, int16 = "torch.float32", "torch.float16", "torch.bfloat16", "torch.float64", "torch.int32", "torch.int8", "torch.uint8", "torch.int64", "torch.int16"
long = int64
_clock = [0.0]  # fake GPU time in ms
_capturing = []
_syncs = [0]  # how many times the host waited for the GPU: an event recorded before one has completed
class Tensor:
    def __init__(self, vals, dtype=float32): self.vals, self.dtype = list(vals), dtype
    @property
    def shape(self): return (len(self.vals),)
    def detach(self): return self
    def reshape(self, *a): return self
    def numel(self): return len(self.vals)
    @property
    def device(self): return "cuda"
    def __getitem__(self, idx):
        if isinstance(idx, Tensor): return Tensor([self.vals[i] for i in idx.vals], self.dtype)
        return self.vals[idx]
    def double(self): return Tensor(self.vals, float64)
    def __sub__(self, o): return Tensor([a - b for a, b in zip(self.vals, o.vals)])
    def abs(self): return Tensor([abs(a) for a in self.vals])
    def __mul__(self, k): return Tensor([a * k for a in self.vals])
    __rmul__ = __mul__
    def __add__(self, o):
        if isinstance(o, Tensor): return Tensor([a + b for a, b in zip(self.vals, o.vals)])
        return Tensor([a + o for a in self.vals])
    __radd__ = __add__
    def __le__(self, o): return Tensor([a <= b for a, b in zip(self.vals, o.vals)])
    def __invert__(self): return Tensor([not a for a in self.vals])
    def sum(self): return sum(self.vals)
    def nonzero(self): return [i for i, a in enumerate(self.vals) if a]
    def __int__(self): return int(self.vals[0])
    def __float__(self): return float(self.vals[0])
    def zero_(self): _clock[0] += 0.04; return self
    def fill_(self, v): _clock[0] += 0.04; return self
def empty(n, dtype=None, device=None): return Tensor([0] * min(n, 4), dtype)
def arange(n, device=None): return Tensor(range(n))
def as_tensor(v, dtype=None, device=None): return Tensor(v)
def ones(n, device=None, dtype=float32): return Tensor([1.0] * n, dtype)
class _Props:
    name = "Fake GPU"; multi_processor_count = 132; total_memory = 80 << 30; major, minor = 9, 0
    L2_cache_size = 50 << 20; uuid = "1234-abcd"
class _Event:
    def __init__(self, enable_timing=False): self.t = None
    def record(self): self.t, self.seq = _clock[0], _syncs[0]
    def synchronize(self): pass
    def query(self): return _syncs[0] > self.seq  # queued work completes only when the host waits for it
    def elapsed_time(self, e): return e.t - self.t
class _Stream:
    cuda_stream = 0
    def wait_stream(self, s): pass
    def synchronize(self): pass
class _Graph:
    def __init__(self): self.n = 0; self.fn = None
    def replay(self):
        for _ in range(self.n): self.fn()
    def capture_begin(self): _capturing.append([])
    def capture_end(self):
        calls = _capturing.pop()
        self.n = len(calls); self.fn = calls[0] if calls else (lambda: None)
@contextlib.contextmanager
def _graph(g):
    g.capture_begin()
    try: yield
    finally: g.capture_end()
def _synchronize():
    if _capturing: raise RuntimeError("CUDA error: operation not permitted when stream is capturing")
    _syncs[0] += 1
cuda = types.SimpleNamespace(
    is_available=lambda: True, init=lambda: None, current_device=lambda: 0, get_device_properties=lambda d: _Props(),
    Event=_Event, current_stream=lambda: _Stream(), Stream=_Stream, stream=contextlib.nullcontext, CUDAGraph=_Graph, graph=_graph,
    synchronize=_synchronize, empty_cache=lambda: None, _sleep=lambda cycles: _clock.__setitem__(0, _clock[0] + cycles / 2e6))
def work(us):
    """A fake kernel: us of GPU time (recorded in a capture instead while capturing)."""
    def fn():
        if _capturing: _capturing[-1].append(lambda: _clock.__setitem__(0, _clock[0] + us / 1e3)); return None
        _clock[0] += us / 1e3
        return Tensor([1.0, 2.0])
    return fn
def syncing_work(us, after=0):
    """A fake callable that cannot be captured and, from its call after+1 on, waits for the GPU
    (as .item() or torch.cuda.synchronize() would) before its us of work."""
    calls = [0]
    def fn():
        if _capturing: raise RuntimeError("CUDA error: operation not permitted when stream is capturing")
        calls[0] += 1
        if calls[0] > after: _synchronize()
        _clock[0] += us / 1e3
        return Tensor([1.0, 2.0])
    return fn
def uncapturable_work(us):
    """A fake callable that cannot be captured but queues its work without waiting for the GPU."""
    def fn():
        if _capturing: raise RuntimeError("cannot capture this (a host-side RNG)")
        _clock[0] += us / 1e3
        return Tensor([1.0, 2.0])
    return fn
