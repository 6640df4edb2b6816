"""PyTorch references of the built-in suites: the factories perfgate run --reference torch times.

runner/torchref (Go) owns which built-in benchmark has which reference and
writes a spec per arm (runspec.py): "function" is one of the factories
below, "check" its expected output's factory, and every case's parameters
are the built-in benchmark's own (n=16M, shape=16x2048x4096, b=32, …),
parsed here (size, shape). Each factory allocates inputs of the built-in
benchmark's shapes and dtype, from a generator seeded by the case, and
returns the callable to time; the expected-output factories get the same
arguments, so the same inputs, and compute the result in float64 (float32
where float64 would not fit) with plain formulas, never with the op under
test. The callables do what a PyTorch user writes: an op with its output
allocated by the caching allocator, the loops of the launch-bound suites
in Python (eager), captured into a torch.cuda.CUDAGraph (graph), or
through torch.compile (compile: a compilation failure raises on the first
call, which runspec reports as an error benchmark of that arm only).
"""

import math
import zlib

from perfgate_harness import graphs  # loaded by path (runspec.load_function): no relative import

SEED = 0x70C4


def probe():
    """Return what this Python can measure: torch's version (or why not), CUDA, flash_attn's version."""
    out = {"torch": "", "cuda": False, "flash_attn": "", "error": ""}
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure means no references
        out["error"] = "import torch: %s: %s" % (type(e).__name__, e)
        return out
    out["torch"] = str(getattr(torch, "__version__", "unknown"))
    try:
        out["cuda"] = bool(torch.cuda.is_available())
    except Exception as e:  # noqa: BLE001
        out["error"] = "torch.cuda.is_available: %s" % e
    if not out["cuda"] and not out["error"]:
        out["error"] = "torch %s sees no CUDA device" % out["torch"]
    try:
        import flash_attn
        out["flash_attn"] = str(getattr(flash_attn, "__version__", "unknown"))
    except Exception:  # noqa: BLE001 - FlashAttention-2 is optional
        pass
    return out


def size(v):
    """Return the element count a size label writes (4K, 16M, 1G, or a plain number)."""
    if isinstance(v, int):
        return v
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = str(v)
    if s and s[-1] in units:
        return int(s[:-1]) * units[s[-1]]
    return int(s)


def shape(v):
    """Return the dimensions of a shape label: 16x2048x4096 -> (16, 2048, 4096)."""
    return tuple(int(p) for p in str(v).split("x"))


def _flag(v):
    return str(v).lower() in ("true", "on", "1")


def _gen(*key):
    import torch
    g = torch.Generator(device="cuda")
    # crc32, not hash(): a draw process must build the same inputs (str hashes differ per process)
    g.manual_seed(SEED ^ zlib.crc32("/".join(str(k) for k in key).encode()))
    return g


def _uniform(g, dims, dtype, lo=-1.0, hi=1.0):
    import torch
    x = torch.rand(dims, generator=g, device="cuda", dtype=torch.float32)
    return (x * (hi - lo) + lo).to(dtype)


# ---- elementwise: add mul div relu sigmoid gelu (tanh) swish ----

BINARY = ("add", "mul", "div")


def _ew_inputs(op, dtype, n):
    g = _gen("elementwise", op, dtype, n)
    x = _uniform(g, (size(n),), dtype, -2, 2)
    y = _uniform(g, (size(n),), dtype, 0.5, 2) if op == "div" else _uniform(g, (size(n),), dtype, -2, 2)
    return x, y


def elementwise(op, dtype, n, **_):
    import torch
    import torch.nn.functional as F
    x, y = _ew_inputs(op, dtype, n)
    fns = {"add": lambda: torch.add(x, y), "mul": lambda: torch.mul(x, y), "div": lambda: torch.div(x, y),
           "relu": lambda: torch.relu(x), "sigmoid": lambda: torch.sigmoid(x),
           "gelu": lambda: F.gelu(x, approximate="tanh"), "swish": lambda: F.silu(x)}
    return fns[op]


def elementwise_expected(op, dtype, n, **_):
    x, y = _ew_inputs(op, dtype, n)
    a, b = x.double(), y.double()
    if op == "add":
        r = a + b
    elif op == "mul":
        r = a * b
    elif op == "div":
        r = a / b
    elif op == "relu":
        r = a.clamp_min(0)
    elif op == "sigmoid":
        r = 1 / (1 + (-a).exp())
    elif op == "gelu":
        r = 0.5 * a * (1 + (math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3)).tanh())
    else:  # swish
        r = a / (1 + (-a).exp())
    out = r.to(dtype)
    return lambda: out


# ---- rowwise: layer_norm rms_norm softmax dropout mse_loss cross_entropy ----

EPS = 1e-5


def _rows(op, dtype, shape_):
    dims = shape(shape_)
    g = _gen("rowwise", op, dtype, shape_)
    x = _uniform(g, dims, dtype, -2, 2)
    d = dims[-1]
    return g, x, d


def rowwise(op, dtype, shape, keep=0.9, **_):
    import torch
    import torch.nn.functional as F
    g, x, d = _rows(op, dtype, shape)
    if op == "layernorm":
        w, b = _uniform(g, (d,), dtype), _uniform(g, (d,), dtype)
        return lambda: F.layer_norm(x, (d,), w, b, EPS)
    if op == "rmsnorm":
        w = _uniform(g, (d,), dtype)
        if hasattr(F, "rms_norm"):
            return lambda: F.rms_norm(x, (d,), w, EPS)
        return lambda: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + EPS)).to(dtype) * w
    if op == "softmax":
        return lambda: torch.softmax(x, dim=-1)
    if op == "dropout":
        return lambda: F.dropout(x, p=1 - float(keep), training=True)
    if op == "mse":
        y = _uniform(g, x.shape, dtype, -2, 2)
        return lambda: F.mse_loss(x, y)
    if op == "cross_entropy":
        logits = x.reshape(-1, d)
        t = torch.randint(0, d, (logits.shape[0],), generator=g, device="cuda", dtype=torch.int64)
        return lambda: F.cross_entropy(logits, t)
    raise ValueError("rowwise has no PyTorch reference for %r" % op)


def rowwise_expected(op, dtype, shape, **_):
    import torch
    g, x, d = _rows(op, dtype, shape)
    a = x.double()
    if op == "layernorm":
        w, b = _uniform(g, (d,), dtype).double(), _uniform(g, (d,), dtype).double()
        mean = a.mean(-1, keepdim=True)
        var = ((a - mean) ** 2).mean(-1, keepdim=True)
        r = (a - mean) / (var + EPS).sqrt() * w + b
    elif op == "rmsnorm":
        w = _uniform(g, (d,), dtype).double()
        r = a / ((a * a).mean(-1, keepdim=True) + EPS).sqrt() * w
    elif op == "softmax":
        e = (a - a.amax(-1, keepdim=True)).exp()
        r = e / e.sum(-1, keepdim=True)
    elif op == "mse":
        y = _uniform(g, x.shape, dtype, -2, 2).double()
        r = ((a - y) ** 2).mean()
    elif op == "cross_entropy":
        logits = a.reshape(-1, d)
        t = torch.randint(0, d, (logits.shape[0],), generator=g, device="cuda", dtype=torch.int64)
        lse = logits.logsumexp(-1)
        r = (lse - logits.gather(1, t[:, None])[:, 0]).mean()
    else:
        raise ValueError("rowwise has no expected output for %r" % op)
    out = r.to(dtype)
    return lambda: out


# ---- gemm: torch.matmul ----

def _gemm_inputs(dtype, shape_):
    m, n, k = shape(shape_)
    g = _gen("gemm", dtype, shape_)
    return _uniform(g, (m, k), dtype), _uniform(g, (k, n), dtype)


def gemm(dtype, shape, tf32="off", **_):
    import torch
    a, b = _gemm_inputs(dtype, shape)
    allow = _flag(tf32)

    def run():
        torch.backends.cuda.matmul.allow_tf32 = allow
        return torch.matmul(a, b)
    return run


def gemm_expected(dtype, shape, **_):
    a, b = _gemm_inputs(dtype, shape)
    out = (a.double() @ b.double()).to(dtype)
    return lambda: out


# ---- attention: scaled_dot_product_attention, FlashAttention-2 ----

def _attn_inputs(dtype, b, h, s, d, hkv=None):
    g = _gen("attention", dtype, b, h, s, d, hkv)
    kvh = int(hkv or h)
    return _uniform(g, (b, h, s, d), dtype), _uniform(g, (b, kvh, s, d), dtype), _uniform(g, (b, kvh, s, d), dtype)


def sdpa(dtype, b, h, s, d, causal, hkv=None, **_):
    import torch.nn.functional as F
    q, k, v = _attn_inputs(dtype, b, h, s, d, hkv)
    is_causal = _flag(causal)
    if k.shape[1] != h:
        try:
            F.scaled_dot_product_attention(q[:, :, :1], k[:, :, :1], v[:, :, :1], enable_gqa=True)
            return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, enable_gqa=True)
        except TypeError:  # before torch 2.5: K/V expanded once, outside the timed call
            rep = h // k.shape[1]
            k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)


def flash_attn2(dtype, b, h, s, d, causal, hkv=None, **_):
    from flash_attn import flash_attn_func
    q, k, v = (t.transpose(1, 2).contiguous() for t in _attn_inputs(dtype, b, h, s, d, hkv))
    is_causal = _flag(causal)
    return lambda: flash_attn_func(q, k, v, causal=is_causal).transpose(1, 2)


def attention_expected(dtype, b, h, s, d, causal, hkv=None, **_):
    import torch
    q, k, v = (t.float() for t in _attn_inputs(dtype, b, h, s, d, hkv))
    if k.shape[1] != h:
        rep = h // k.shape[1]
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    out = torch.empty_like(q)
    for i in range(b):  # one batch at a time: the S×S scores of all of them need not fit
        sc = (q[i] @ k[i].transpose(-1, -2)) / math.sqrt(d)
        if _flag(causal):
            sc = sc.masked_fill(torch.ones(s, s, device=sc.device, dtype=torch.bool).triu(1), float("-inf"))
        out[i] = sc.softmax(-1) @ v[i]
    res = out.to(dtype)
    return lambda: res


# ---- decode: L dependent steps of one-query attention over a growing K/V cache ----

def _decode_inputs(dtype, b, h, d, l):
    g = _gen("decode", dtype, b, h, d, l)
    return tuple(_uniform(g, (b * h, l, d), dtype) for _ in range(3))


def _decode_step(torch, F):
    def step(qt, prev, kt, vt):
        return F.scaled_dot_product_attention(qt + prev, kt, vt)
    return step


def decode(dtype, b, h, d, l, variant="eager", **_):
    import torch
    import torch.nn.functional as F
    q, k, v = _decode_inputs(dtype, b, h, d, l)
    o = torch.zeros_like(q)
    zero = torch.zeros_like(q[:, :1])
    step = _decode_step(torch, F)
    if variant == "compile":
        step = torch.compile(step, dynamic=True)

    def run():
        prev = zero
        for t in range(l):
            prev = step(q[:, t:t + 1], prev, k[:, :t + 1], v[:, :t + 1])
            o[:, t:t + 1].copy_(prev)
        return o
    return _graphed(torch, run) if variant == "graph" else run


def decode_expected(dtype, b, h, d, l, **_):
    import torch
    q, k, v = (t.float() for t in _decode_inputs(dtype, b, h, d, l))
    o = torch.zeros_like(q)
    prev = torch.zeros_like(q[:, :1])
    for t in range(l):
        sc = ((q[:, t:t + 1] + prev) @ k[:, :t + 1].transpose(-1, -2)) / math.sqrt(d)
        prev = sc.softmax(-1) @ v[:, :t + 1]
        prev = prev.to(dtype).float()  # each step's output is stored in the input type, as the GPU's is
        o[:, t:t + 1] = prev
    res = o.to(dtype)
    return lambda: res


# ---- microbatch: `ops` small fp32 adds, each on its own slices ----

def _micro_inputs(n, ops):
    g = _gen("microbatch", n, ops)
    import torch
    a, b = (_uniform(g, (int(ops), size(n)), torch.float32, -2, 2) for _ in range(2))
    return a, b


def microbatch(n, ops, variant="eager", **_):
    import torch
    a, b = _micro_inputs(n, ops)
    c = torch.empty_like(a)
    views = [(a[i], b[i], c[i]) for i in range(int(ops))]
    add = torch.add
    if variant == "compile":
        def add_into(x, y, out):
            out.copy_(x + y)
        add = torch.compile(add_into, dynamic=False)

        def run():
            for x, y, z in views:
                add(x, y, z)
            return c
        return run

    def run():
        for x, y, z in views:
            add(x, y, out=z)
        return c
    return _graphed(torch, run) if variant == "graph" else run


def microbatch_expected(n, ops, **_):
    import torch
    a, b = _micro_inputs(n, ops)
    out = (a.double() + b.double()).to(torch.float32)
    return lambda: out


# ---- mixedops: x = div(sigmoid(relu(mul(add(x, a), b))), c), `iters` times ----

def _mixed_inputs(n):
    import torch
    g = _gen("mixedops", n)
    x0, a, b = (_uniform(g, (size(n),), torch.float32, -2, 2) for _ in range(3))
    return x0, a, b, _uniform(g, (size(n),), torch.float32, 0.5, 2)


def mixedops(n, iters, variant="eager", **_):
    import torch
    x0, a, b, c = _mixed_inputs(n)
    out = torch.empty_like(x0)

    def it(x):
        return torch.div(torch.sigmoid(torch.relu(torch.mul(torch.add(x, a), b))), c)
    if variant == "compile":
        it = torch.compile(it, dynamic=False)

    def run():
        x = x0
        for _ in range(int(iters)):
            x = it(x)
        out.copy_(x)
        return out
    return _graphed(torch, run) if variant == "graph" else run


def mixedops_expected(n, iters, **_):
    import torch
    x, a, b, c = (t.double() for t in _mixed_inputs(n))
    for _ in range(int(iters)):
        x = ((x + a) * b).clamp_min(0)
        x = (1 / (1 + (-x).exp())) / c
    out = x.to(torch.float32)
    return lambda: out


def _graphed(torch, run):
    """Capture run's launches once into a CUDA graph (graphs.capture: after a warm call on the current
    stream; the driver's capture when run allocates nothing, else torch's) and return a callable that
    replays it and returns what run returned."""
    g, res, how = graphs.capture(torch, run, 1)

    def replay():
        g.replay()
        return res
    # The graph reads the tensors run's closure holds (the inputs, views of
    # them) at the addresses it captured: keep them alive as long as the
    # graph, or the caching allocator hands their memory to the next
    # allocation and a later replay reads whatever is there.
    replay.keep = run
    replay.graph_how = how  # the timer's note says how the graph it replays was captured
    return replay
