"""A Triton vector add and the PyTorch op it replaces, as python: suite factories.

Each factory takes the sweep's parameters and a torch dtype and returns the
callable perfgate times. SLOW_TRITON_ADD=1 makes triton_add launch its kernel
twice per call: the same result in about twice the time, the deliberate
regression of docs/python.md's walk-through.
"""

import os

import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def inputs(n, dtype):
    """Return x, y and an output of n elements of dtype, the same for a given n."""
    g = torch.Generator(device="cuda").manual_seed(n)
    x = torch.randn(n, device="cuda", generator=g).to(dtype)
    y = torch.randn(n, device="cuda", generator=g).to(dtype)
    return x, y, torch.empty_like(x)


def triton_add(n, dtype):
    """Return a callable computing x + y with add_kernel."""
    x, y, out = inputs(n, dtype)
    grid = (triton.cdiv(n, BLOCK),)
    launches = 2 if os.environ.get("SLOW_TRITON_ADD") == "1" else 1

    def run():
        for _ in range(launches):
            add_kernel[grid](x, y, out, n, BLOCK=BLOCK)
        return out
    return run


def torch_add(n, dtype):
    """Return a callable computing x + y with torch.add, the reference."""
    x, y, out = inputs(n, dtype)
    return lambda: torch.add(x, y, out=out)
