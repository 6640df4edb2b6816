"""torch.add in fp32 for the side-by-side with perfgate's elementwise add (device.sh)."""

import torch


def add(n, dtype):
    """Return a callable computing c = a + b over n elements with torch.add."""
    g = torch.Generator(device="cuda").manual_seed(n)
    a = torch.rand(n, device="cuda", generator=g).to(dtype)
    b = torch.rand(n, device="cuda", generator=g).to(dtype)
    c = torch.empty_like(a)
    return lambda: torch.add(a, b, out=c)
