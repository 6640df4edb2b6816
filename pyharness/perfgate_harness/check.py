"""Correctness against a reference callable, with kernels/numeric.go's tolerances.

|got - want| <= abs + rel * |want| element by element (NaN never passes);
every element of outputs up to 1M, else the first and last 64K and 64K
spread between, as the Go harness checks a kernel's output.
"""

# (abs, rel) by perfgate dtype name: a few units in the last place of the type.
TOLERANCES = {
    "fp16": (1e-4, 2e-3),
    "bf16": (1e-3, 1.6e-2),
    "fp64": (1e-12, 1e-12),
    "fp32": (1e-6, 1e-5),
}
EXACT = ("i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64", "bool")

# perfgate dtype names of torch dtypes, by the torch attribute name.
TORCH_NAMES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64", "int32": "i32",
               "uint32": "u32", "int8": "i8", "uint8": "u8", "int16": "i16", "int64": "i64", "bool": "bool"}


def tolerance_for(dtype, override=0.0):
    """Return (abs, rel) for outputs of dtype; override > 0 is both, as a kernel suite's tolerance:."""
    if override > 0:
        return override, override
    if dtype in EXACT:
        return 0.0, 0.0
    return TOLERANCES.get(dtype, TOLERANCES["fp32"])


def check_indices(n):
    """Return which of n elements to check, as kernels/numeric.go's checkIndices (a list of ints)."""
    all_, edge = 1 << 20, 1 << 16
    if n <= all_:
        return range(n)
    step = (n - 2 * edge) // edge
    return list(range(edge)) + [edge + i * step for i in range(edge)] + list(range(n - edge, n))


class Mismatch(Exception):
    """A Mismatch is the first output element outside the tolerance, and how many were."""


def _flat(x):
    if isinstance(x, (tuple, list)):
        out = []
        for v in x:
            out.extend(_flat(v))
        return out
    return [x]


def check_outputs(got, want, override=0.0):
    """Compare the tensors in got with those in want (a tensor, or nested tuples/lists of them).

    Raises Mismatch naming the output, the first wrong element, the expected
    value, the tolerance and how many checked elements were wrong.
    """
    import torch

    gs, ws = _flat(got), _flat(want)
    if len(gs) != len(ws):
        raise Mismatch("the callable returned %d outputs, the reference %d" % (len(gs), len(ws)))
    for k, (g, w) in enumerate(zip(gs, ws)):
        if not isinstance(g, torch.Tensor) or not isinstance(w, torch.Tensor):
            raise Mismatch("output %d: not a tensor (%s, reference %s)" % (k, type(g).__name__, type(w).__name__))
        if g.shape != w.shape:
            raise Mismatch("output %d: shape %s, reference %s" % (k, tuple(g.shape), tuple(w.shape)))
        dtype = TORCH_NAMES.get(str(g.dtype).replace("torch.", ""), "fp32")
        abs_, rel = tolerance_for(dtype, override)
        gf, wf = g.detach().reshape(-1), w.detach().reshape(-1)
        n = gf.numel()
        if n <= 1 << 20:
            idx = torch.arange(n, device=gf.device)
        else:
            idx = torch.as_tensor(check_indices(n), dtype=torch.long, device=gf.device)
        gv, wv = gf[idx].double(), wf[idx].double()
        ok = (gv - wv).abs() <= abs_ + rel * wv.abs()
        bad = int((~ok).sum())
        if bad:
            i = int((~ok).nonzero()[0])
            raise Mismatch("wrong result: output %d element %d is %g, want %g (tolerance %g + %g·|want|; %d elements wrong)"
                           % (k, int(idx[i]), float(gv[i]), float(wv[i]), abs_, rel, bad))
