"""saxpy.cu (examples/kernels) loaded into PyTorch's CUDA context, for a python: suite.

The Go harness compiles examples/kernels/saxpy.cu with NVRTC for
compute_XY and launches it with cuLaunchKernel; this module does the same
through ctypes (libnvrtc, libcuda) on torch's current stream, so both
harnesses time the same PTX with the same launch geometry
(docs/results/python/device.sh compares them).
"""

import ctypes
import glob
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "..", "examples", "kernels", "saxpy.cu")


def _lib(names, patterns):
    for n in names:
        try:
            return ctypes.CDLL(n)
        except OSError:
            pass
    for p in patterns:
        for f in sorted(glob.glob(p), reverse=True):
            try:
                return ctypes.CDLL(f)
            except OSError:
                pass
    raise OSError("none of %s found" % (names,))


_nvrtc = _lib(["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"],
              ["/usr/local/cuda/lib64/libnvrtc.so*", os.path.join(os.path.dirname(torch.__file__), "..", "nvidia", "cu*", "lib", "libnvrtc.so*"),
               os.path.join(os.path.dirname(torch.__file__), "..", "nvidia", "cuda_nvrtc", "lib", "libnvrtc.so*")])
_cuda = ctypes.CDLL("libcuda.so.1")
_modules = {}


def _check(rc, what):
    if rc != 0:
        raise RuntimeError("%s failed: %d" % (what, rc))


def _ptx(src, options):
    prog = ctypes.c_void_p()
    _check(_nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"saxpy.cu", 0, None, None), "nvrtcCreateProgram")
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    rc = _nvrtc.nvrtcCompileProgram(prog, len(options), opts)
    if rc != 0:
        n = ctypes.c_size_t()
        _nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value)
        _nvrtc.nvrtcGetProgramLog(prog, log)
        raise RuntimeError("nvrtc: " + log.value.decode(errors="replace"))
    n = ctypes.c_size_t()
    _check(_nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(n)), "nvrtcGetPTXSize")
    buf = ctypes.create_string_buffer(n.value)
    _check(_nvrtc.nvrtcGetPTX(prog, buf), "nvrtcGetPTX")
    return buf.raw


def _function(entry, unroll):
    key = (entry, unroll)
    if key not in _modules:
        torch.cuda.init()
        torch.cuda.current_stream().synchronize()  # makes torch's primary context current on this thread
        major, minor = torch.cuda.get_device_capability()
        ptx = _ptx(open(SOURCE).read(), ["--gpu-architecture=compute_%d%d" % (major, minor), "-DUNROLL=%d" % unroll])
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        _check(_cuda.cuModuleLoadData(ctypes.byref(mod), ptx), "cuModuleLoadData")
        _check(_cuda.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()), "cuModuleGetFunction")
        _modules[key] = (mod, fn)
    return _modules[key][1]


def _launcher(entry, n, unroll):
    fn = _function(entry, unroll)
    g = torch.Generator(device="cuda").manual_seed(n)
    x = torch.rand(n, device="cuda", generator=g)
    y = torch.rand(n, device="cuda", generator=g)
    xp, yp = ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr())
    a, nn = ctypes.c_float(2.0), ctypes.c_int(n)
    args = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in (xp, yp, a, nn)])
    grid = (n + 256 * unroll - 1) // (256 * unroll)

    def run():
        stream = torch.cuda.current_stream().cuda_stream
        _check(_cuda.cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, ctypes.c_void_p(stream), args, None), "cuLaunchKernel")
        return y

    run.keep = (x, y, xp, yp, a, nn, args)  # the argument storage must outlive the launches
    return run


def saxpy(n, unroll):
    """Return a callable launching saxpy (y = 2x + y) over n floats with UNROLL=unroll."""
    return _launcher("saxpy", n, unroll)


def saxpy_ref(n, unroll):
    """Return a callable launching saxpy_ref with saxpy's grid (the kernel suite's reference)."""
    return _launcher("saxpy_ref", n, unroll)
