"""perfgate's own kernels loaded into PyTorch's CUDA context, so that a python: suite times the very work the Go harness times.

The Go harness compiles a kernel with NVRTC (--gpu-architecture=compute_XY
--std=c++17, then the kernel's own options), fills its inputs with its
random stream (kernels/cu/common.cu's pg_fill, kernels/numeric.go's
randValue) and launches it with cuLaunchKernel. This module does the same
through ctypes, on torch's current stream, for
  - examples/kernels/saxpy.cu with the saxpy kernel suite's grid, block and
    buffers (x, y random in [-1, 1), seeds 0x5005 and 0x5006), and
  - the elementwise suite's add_fp32 (kernels/cu/elementwise.cu after
    common.cu) with its grid (one float4 a thread, 256 threads a block) and
    inputs (random in [-2, 2), seeds 0x1001 and 0x2002),
so that a Python-vs-Go difference is the harnesses', not the kernels' or the
data's (docs/python.md, "Agreement with the Go harness"). The buffers come
from torch's caching allocator, as a torch user's would; agreement.py tries
cuMemAlloc'd ones too.
"""

import ctypes
import glob
import hashlib
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
SAXPY = os.path.join(ROOT, "examples", "kernels", "saxpy.cu")
BUILTIN = os.path.join(ROOT, "kernels", "cu")


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


_tdir = os.path.dirname(torch.__file__)
# The Go harness loads the newest of libnvrtc.so.13, .12, .11.2 (kernels/libload.go): the same order here.
_nvrtc = _lib(["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"],
              ["/usr/local/cuda/lib64/libnvrtc.so*", os.path.join(_tdir, "..", "nvidia", "cu*", "lib", "libnvrtc.so*"),
               os.path.join(_tdir, "..", "nvidia", "cuda_nvrtc", "lib", "libnvrtc.so*")])
_cuda = ctypes.CDLL("libcuda.so.1")
_modules = {}
PTX = {}  # compiled PTX by (file, options), for agreement.py's comparison with the Go harness's


def _check(rc, what):
    if rc != 0:
        raise RuntimeError("%s failed: %d" % (what, rc))


def nvrtc_version():
    """Return the loaded libnvrtc's version, as "13.0"."""
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(_nvrtc.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return "%d.%d" % (major.value, minor.value)


def _ptx(src, name, options):
    prog = ctypes.c_void_p()
    _check(_nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), name.encode(), 0, None, None), "nvrtcCreateProgram")
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
    return buf.raw.rstrip(b"\0")


def go_options(extra=()):
    """Return the Go harness's NVRTC options for this device (kernels/compile_cuda.go's nvrtcOptions), then extra."""
    major, minor = torch.cuda.get_device_capability()
    return ["--gpu-architecture=compute_%d%d" % (major, minor), "--std=c++17"] + list(extra)


def builtin_source(name):
    """Return a built-in suite's source as the Go harness compiles it (compile_cuda.go's builtinSource)."""
    common = open(os.path.join(BUILTIN, "common.cu")).read()
    body = open(os.path.join(BUILTIN, name + ".cu")).read()
    return common + "\n#line 1 \"" + name + ".cu\"\n" + body


def function(file, src, entry, options):
    """Return entry of src compiled with options and loaded into torch's context (once per file and options)."""
    key = (file, tuple(options))
    if key not in _modules:
        torch.cuda.init()
        torch.cuda.current_stream().synchronize()  # makes torch's primary context current on this thread
        ptx = _ptx(src, file, options)
        PTX[key] = ptx
        mod = ctypes.c_void_p()
        _check(_cuda.cuModuleLoadData(ctypes.byref(mod), ptx + b"\0"), "cuModuleLoadData")
        _modules[key] = (mod, {})
    mod, fns = _modules[key]
    if entry not in fns:
        fn = ctypes.c_void_p()
        _check(_cuda.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()), "cuModuleGetFunction")
        fns[entry] = fn
    return fns[entry]


class Launch:
    """A Launch is one cuLaunchKernel of fn with 64-bit argument slots (pointers, scalars) on torch's current stream."""

    def __init__(self, fn, grid, block, args):
        self.fn, self.grid, self.block = fn, grid, block
        self.slots = [a if isinstance(a, ctypes._SimpleCData) else ctypes.c_void_p(a) for a in args]
        self.ptrs = (ctypes.c_void_p * len(self.slots))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in self.slots])

    def __call__(self):
        stream = torch.cuda.current_stream().cuda_stream
        _check(_cuda.cuLaunchKernel(self.fn, self.grid, 1, 1, self.block, 1, 1, 0, ctypes.c_void_p(stream), self.ptrs, None),
               "cuLaunchKernel")


def go_fill(t, seed, lo, hi):
    """Fill fp32 tensor t with the Go harness's random stream seed in [lo, hi) (common.cu's pg_fill_fp32)."""
    fill = function("elementwise.cu", builtin_source("elementwise"), "pg_fill_fp32", go_options())
    n = t.numel()
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    Launch(fill, min(sms * 32, (n + 255) // 256), 256,
           [t.data_ptr(), ctypes.c_longlong(n), ctypes.c_uint(seed), ctypes.c_float(lo), ctypes.c_float(hi)])()
    torch.cuda.synchronize()
    return t


def _saxpy(entry, n, unroll, alloc=None):
    fn = function("saxpy.cu", open(SAXPY).read(), entry, go_options(["-DUNROLL=%d" % unroll]))
    alloc = alloc or (lambda: torch.empty(n, device="cuda"))
    x, y = go_fill(alloc(), 0x5005, -1, 1), go_fill(alloc(), 0x5006, -1, 1)
    launch = Launch(fn, (n + 256 * unroll - 1) // (256 * unroll), 256,
                    [x.data_ptr(), y.data_ptr(), ctypes.c_float(2.0), ctypes.c_int(n)])

    def run():
        launch()
        return y

    run.keep = (x, y, launch)  # the buffers and argument storage must outlive the launches
    return run


def saxpy(n, unroll, alloc=None):
    """Return a callable launching saxpy (y = 2x + y) over n floats with UNROLL=unroll, as the saxpy kernel suite."""
    return _saxpy("saxpy", n, unroll, alloc)


def saxpy_ref(n, unroll):
    """Return a callable launching saxpy_ref with saxpy's grid (the kernel suite's reference)."""
    return _saxpy("saxpy_ref", n, unroll)


def add(n, dtype=torch.float32, alloc=None):
    """Return a callable launching the elementwise suite's add_fp32 (c = a + b) over n floats with its grid."""
    if dtype != torch.float32:
        raise ValueError("add_fp32 is fp32 only")
    fn = function("elementwise.cu", builtin_source("elementwise"), "add_fp32", go_options())
    alloc = alloc or (lambda: torch.empty(n, device="cuda"))
    a, b, c = go_fill(alloc(), 0x1001, -2, 2), go_fill(alloc(), 0x2002, -2, 2), alloc()
    threads = (n + 3) // 4  # one float4 a thread (suite_elementwise_cuda.go: grid1D((n + 16/es - 1) / (16/es)))
    launch = Launch(fn, min(max((threads + 255) // 256, 1), 2**31 - 1), 256,
                    [a.data_ptr(), b.data_ptr(), c.data_ptr(), ctypes.c_longlong(n)])

    def run():
        launch()
        return c

    run.keep = (a, b, c, launch)
    return run


def ptx_digest(ptx):
    """Return the SHA-256 of ptx without comments and blank lines (compiler ids and file names differ)."""
    lines = []
    for line in ptx.rstrip(b"\0").decode(errors="replace").splitlines():
        line = line.split("//", 1)[0].strip()
        if line:
            lines.append(line)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()
