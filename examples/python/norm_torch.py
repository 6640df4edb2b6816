"""PyTorch's fused LayerNorm against the same normalisation written as eager ops.

The eager composite is what a model without a fused kernel runs: perfgate
reports layer_norm's speedup over it (speedup_vs_composite).
"""

import torch
import torch.nn.functional as F

EPS = 1e-5


def _inputs(rows, dim, dtype):
    g = torch.Generator(device="cuda").manual_seed(rows * dim)
    x = torch.randn(rows, dim, device="cuda", generator=g).to(dtype)
    w = torch.rand(dim, device="cuda", generator=g).to(dtype) + 0.5
    b = torch.randn(dim, device="cuda", generator=g).to(dtype)
    return x, w, b


def layer_norm(rows, dim, dtype):
    """Return a callable running F.layer_norm over rows × dim."""
    x, w, b = _inputs(rows, dim, dtype)
    return lambda: F.layer_norm(x, (dim,), w, b, EPS)


def composite(rows, dim, dtype):
    """Return a callable computing the same LayerNorm from eager ops, in fp32."""
    x, w, b = _inputs(rows, dim, dtype)

    def run():
        xf = x.float()
        mean = xf.mean(-1, keepdim=True)
        var = xf.var(-1, unbiased=False, keepdim=True)
        return ((xf - mean) * torch.rsqrt(var + EPS) * w.float() + b.float()).to(dtype)
    return run
