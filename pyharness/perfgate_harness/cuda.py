"""The torch side of the harness: a timer of CUDA events, an NVML monitor, the GPU's fingerprint.

TorchTimer times a callable as kernels/device/timer.go and kernels/timing_cuda.go time a kernel: every
sample replays a CUDA graph of the sample's repetitions (one in cold mode, N
in batch mode), queued behind a block so that the events time back-to-back
GPU work rather than how fast Python issues launches; in cold mode an L2
flush (a fill of twice the L2 size) goes before the block. The block is
torch.cuda._sleep, a kernel that spins for a number of clock cycles (the Go
harness spins on a flag in host memory instead, which Python cannot launch);
when the GPU reached the start event before the launches were all queued,
the block was too short: it is doubled and the sample retaken. A callable
that cannot be captured is timed as stream launches, and info.timing says
why; one that cannot even be queued behind the block (it waits for the GPU:
.item(), torch.cuda.synchronize(), a copy to the host) is timed as issued,
events around the calls with no block, as the Go harness's as-issued time,
and info.timing says that the time includes the CPU's. NvmlMonitor reads
the SM clock and clock-event reasons through libnvidia-ml with ctypes;
without it, clocks are 0 (unknown), as in Go.
"""

import ctypes
import os
import time

import torch

from . import graphs
from .loop import BlockTimeout
from .sampling import MS, US, go_duration

# Clock-event reason bits and names (kernels/doctor.go's clockReasonNames).
REASON_NAMES = [(0x1, "gpu_idle"), (0x2, "applications_clocks"), (0x4, "sw_power_cap"), (0x8, "hw_slowdown"),
                (0x10, "sync_boost"), (0x20, "sw_thermal"), (0x40, "hw_thermal"), (0x80, "hw_power_brake"),
                (0x100, "display_clocks")]

MAX_BLOCK = 50 * MS  # the Go harness's blocking kernel gives up after 50 ms
MIN_FLUSH = 64 << 20  # the Go harness's flush buffer: twice the L2 size, at least 64 MiB
TIMING_GRAPH = "graph: every sample replays a CUDA graph of its repetitions behind a block"
TIMING_ISSUED = ("issued: CUDA events around the calls as Python issues them, no block, because %s; "
                 "a sample includes the CPU's time to issue the calls and to wait for the GPU, not only GPU work")
WAITS_FOR_GPU = ("one call did not return before a %s block ran out: the callable waits for the GPU "
                 "(.item(), torch.cuda.synchronize(), a copy to the host) or takes longer than that to issue")


def _ns(start, end):
    return int(round(start.elapsed_time(end) * 1e6))


_shared = {}


def _flush_buffer(props):
    """Return the process's L2 flush buffer: twice the L2 size, at least 64 MiB, as the Go harness's."""
    if "flush" not in _shared:
        l2 = getattr(props, "L2_cache_size", 0)
        _shared["flush"] = torch.empty(max(2 * l2, MIN_FLUSH) // 4, dtype=torch.int32, device="cuda")
        _shared["flush_value"] = 0
    return _shared["flush"]


def _flush_l2(buf):
    """Overwrite the flush buffer with a new value each time, as the Go harness's cuMemsetD32Async."""
    _shared["flush_value"] = (_shared["flush_value"] + 1) & 0x7FFFFFFF
    buf.fill_(_shared["flush_value"])


def _calibrate():
    """Return the block's clock cycles per ns (torch.cuda._sleep counts cycles), measured once."""
    if "cycles" not in _shared:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(20_000_000)  # about 10 ms first, so that an idle GPU's clock has risen
        s.record()
        torch.cuda._sleep(2_000_000)
        e.record()
        e.synchronize()
        _shared["cycles"] = 2_000_000 / max(_ns(s, e), 1)
    return _shared["cycles"]


class TorchTimer:
    """A TorchTimer times repetitions of fn, a callable of no arguments, on the current stream."""

    def __init__(self, fn, graph=True):
        self.fn = fn
        self.stream = torch.cuda.current_stream()
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        self.flush_buf = _flush_buffer(props)
        self.graphs = {}
        self.use_graph = graph
        self.not_captured = "" if graph else "graphs off"  # why fn is not replayed from a graph
        self.timing = TIMING_GRAPH if graph else "stream: stream launches behind a block (graphs off)"
        if getattr(fn, "graph_how", ""):  # fn replays a graph of its own (torchref's torch.graph arms)
            self.timing += "; each call replays the callable's own graph, " + fn.graph_how
        self.can_block = hasattr(torch.cuda, "_sleep")
        if not self.can_block:
            self.timing += "; no torch.cuda._sleep: samples are not held behind a block"
        self.block = 100 * US
        self.cycles_per_ns = _calibrate() if self.can_block else 0.0
        self.as_issued = False  # held() times the calls as issued, without the block

    def probe(self):
        """Decide how to time fn and return the timing note.

        Capture one repetition; on failure fall back to stream launches, and
        those to timing as issued when one call cannot be queued behind the
        longest block (waits_for_gpu).
        """
        if self.use_graph:
            self._runner(1)
        if not self.use_graph and self.can_block and self.waits_for_gpu():
            self.time_as_issued(WAITS_FOR_GPU % go_duration(MAX_BLOCK))
        return self.timing

    def waits_for_gpu(self):
        """Report whether one call of fn keeps the CPU until the GPU has run out of queued work.

        After a warm call (compilation and lazy loading), one call is made
        behind a block of MAX_BLOCK, the longest the loop would try: if the
        GPU reached the event after the block before the call returned, no
        sample of fn can be held behind a block.
        """
        self.fn()
        torch.cuda.synchronize()
        s = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(MAX_BLOCK * self.cycles_per_ns))
        s.record()
        self.fn()
        late = s.query()
        torch.cuda.synchronize()
        return late

    def time_as_issued(self, why):
        """Time fn as issued from now on: events around the calls, no block; the timing note says why."""
        self.as_issued, self.use_graph, self.graphs = True, False, {}
        self.timing = TIMING_ISSUED % why + ("; " + self.not_captured if self.not_captured else "")

    def _runner(self, n):
        if self.use_graph:
            g = self.graphs.get(n)
            if g is None:
                try:
                    g = self._capture(n)
                except Exception as e:  # noqa: BLE001 - any capture failure means: use stream launches
                    torch.cuda.synchronize()
                    self.use_graph, self.graphs = False, {}
                    first = (str(e).strip().splitlines() or [type(e).__name__])[0]
                    self.not_captured = "CUDA graph capture failed: " + first[:200]
                    self.timing = "stream: stream launches behind a block; " + self.not_captured
                else:
                    self.graphs = {n: g}  # one graph at a time: each holds its own memory pool
            if self.use_graph:
                return g.replay
        fn = self.fn

        def launches():
            for _ in range(n):
                fn()
        return launches

    def _capture(self, n):
        g, _, how = graphs.capture(torch, self.fn, n)
        self.timing = TIMING_GRAPH + " (" + how + ")"
        return g

    def issue(self, n):
        """Run n repetitions as Python issues them and return their GPU time in ns."""
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(n):
            self.fn()
        e.record()
        e.synchronize()
        return _ns(s, e)

    def held(self, n, cold):
        """Time n repetitions queued behind the block (after an L2 flush when cold), in ns.

        Timed as issued (time_as_issued), the events are recorded around the
        calls as Python makes them, with no block.
        """
        run = self._runner(n)
        if self.as_issued:
            return self._issued(run, cold)
        for _ in range(4):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            if cold:
                _flush_l2(self.flush_buf)
            t0 = time.perf_counter_ns()
            if self.can_block:
                torch.cuda._sleep(int(self.block * self.cycles_per_ns))
            s.record()
            run()
            e.record()
            issued = time.perf_counter_ns() - t0
            late = self.can_block and s.query()
            e.synchronize()
            if not late:
                if 2 * issued > self.block:
                    self.block = min(2 * issued, MAX_BLOCK)
                return _ns(s, e)
            if self.block >= MAX_BLOCK:
                break
            self.block = min(2 * self.block, MAX_BLOCK)
        raise BlockTimeout("the block ran out before the launches of a sample were queued")

    def _issued(self, run, cold):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        if cold:
            _flush_l2(self.flush_buf)
        s.record()
        run()
        e.record()
        e.synchronize()
        return _ns(s, e)


def _reason_names(mask):
    return [name for bit, name in REASON_NAMES if mask & bit]


class NullMonitor:
    """A NullMonitor knows no clocks (no NVML): every clock is 0, nothing is throttled."""

    def sm_clock(self):
        return 0.0

    def sample(self):
        return 0.0

    def throttled_now(self):
        return False

    def take_reasons(self):
        return []


class NvmlMonitor:
    """An NvmlMonitor reads the SM clock and clock-event reasons of one GPU through libnvidia-ml."""

    def __init__(self, lib, handle):
        self.lib, self.h = lib, handle
        self.reasons_fn = getattr(lib, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
            getattr(lib, "nvmlDeviceGetCurrentClocksThrottleReasons")
        self.last_read = 0
        self.last_clock = 0.0
        self.last_mask = 0
        self.seen = 0

    def sm_clock(self):
        v = ctypes.c_uint()
        if self.lib.nvmlDeviceGetClockInfo(self.h, 1, ctypes.byref(v)) != 0:  # NVML_CLOCK_SM
            return 0.0
        return float(v.value)

    def sample(self):
        now = time.perf_counter_ns()
        if now - self.last_read >= MS:
            self.last_read = now
            self.last_clock = self.sm_clock()
            mask = ctypes.c_ulonglong()
            if self.reasons_fn(self.h, ctypes.byref(mask)) == 0:
                self.last_mask = mask.value
                self.seen |= mask.value & ~0x1
        return self.last_clock

    def throttled_now(self):
        from .pace import throttled
        return throttled(self.last_mask)

    def take_reasons(self):
        names, self.seen = _reason_names(self.seen), 0
        return names


def _nvml():
    try:
        lib = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return None
    return lib if lib.nvmlInit_v2() == 0 else None


def open_monitor():
    """Return an NvmlMonitor of the current CUDA device, or a NullMonitor (and why) without NVML."""
    lib = _nvml()
    if lib is None:
        return NullMonitor(), "libnvidia-ml.so.1 not loadable"
    uuid = str(getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "uuid", ""))
    if uuid and not uuid.startswith(("GPU-", "MIG-")):
        uuid = "GPU-" + uuid
    h = ctypes.c_void_p()
    if not uuid or lib.nvmlDeviceGetHandleByUUID(uuid.encode(), ctypes.byref(h)) != 0:
        return NullMonitor(), "no NVML device with UUID " + uuid
    return NvmlMonitor(lib, h), ""


def fingerprint():
    """Return run.env for the current device: the keys model.Comparable uses (gpu, driver, cuda) and more."""
    dev = torch.cuda.current_device()
    p = torch.cuda.get_device_properties(dev)
    env = {"gpu": p.name, "sm_count": str(p.multi_processor_count), "memory_bytes": str(p.total_memory),
           "compute_capability": "%d.%d" % (p.major, p.minor), "torch": torch.__version__,
           "harness": "perfgate_harness (Python)"}
    if getattr(p, "L2_cache_size", 0):
        env["l2_bytes"] = str(p.L2_cache_size)
    if getattr(p, "uuid", None):
        u = str(p.uuid)
        env["gpu_uuid"] = u if u.startswith(("GPU-", "MIG-")) else "GPU-" + u
    try:
        import triton
        env["triton"] = triton.__version__
    except Exception:  # noqa: BLE001 - triton is optional
        pass
    lib = _nvml()
    if lib is not None:
        buf = ctypes.create_string_buffer(96)
        if lib.nvmlSystemGetDriverVersion(buf, 96) == 0:
            env["driver"] = buf.value.decode()
        v = ctypes.c_int()
        if lib.nvmlSystemGetCudaDriverVersion_v2(ctypes.byref(v)) == 0:
            env["cuda"] = "%d.%d" % (v.value // 1000, v.value % 1000 // 10)
    env["nvml"] = "yes" if lib is not None else "no"
    if os.environ.get("CUDA_DEVICE_MAX_CONNECTIONS"):
        env["cuda_device_max_connections"] = os.environ["CUDA_DEVICE_MAX_CONNECTIONS"]
    return env
