"""graphs.py: the warm call on the current stream, then the driver's capture on a stream of its own when
the calls allocate nothing, torch's otherwise; torch's stream pools left alone."""

import contextlib
import ctypes
import types
import unittest

from perfgate_harness import graphs


class FakeDriver:
    """FakeDriver stands in for libcuda: streams 0x100, 0x101, …, one capture at a time, graphs 0x200, execs 0x300."""

    def __init__(self, log, rc_stream=0):
        self.log, self.rc_stream, self.streams, self.capturing = log, rc_stream, 0, None

    def cuStreamCreate(self, out, flags):
        if self.rc_stream:
            return self.rc_stream
        ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p))[0] = 0x100 + self.streams
        self.streams += 1
        self.log.append("driver stream flags=%d" % flags)
        return 0

    def cuStreamBeginCapture_v2(self, s, mode):
        self.capturing = s.value
        self.log.append("driver capture begin %#x mode=%d" % (s.value, mode))
        return 0

    def cuStreamEndCapture(self, s, out):
        self.capturing = None
        self.log.append("driver capture end")
        ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p))[0] = 0x200
        return 0

    def cuGraphInstantiateWithFlags(self, out, g, flags):
        self.log.append("instantiate flags=%d" % flags.value)
        ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p))[0] = 0x300
        return 0

    def cuGraphLaunch(self, exe, s):
        self.log.append("graph launch on %s" % (hex(s.value) if s.value else "0"))
        return 0

    def cuGraphDestroy(self, g):
        self.log.append("graph destroyed")

    def cuGraphExecDestroy(self, e):
        pass


def fake_torch(log, allocated):
    """A torch whose current stream is tracked, whose allocator counts allocated[0], whose pool streams log."""
    current = [None]

    class Stream:
        def __init__(self, handle=None):
            self.cuda_stream = handle or 0
            if handle is None:
                log.append("pool stream")

        def wait_stream(self, other):
            pass

    class External(Stream):
        pass

    @contextlib.contextmanager
    def on(s):
        prev, current[0] = current[0], s
        yield
        current[0] = prev

    class Graph:
        def capture_begin(self):
            log.append("torch capture begin")

        def capture_end(self):
            log.append("torch capture end")

    cuda = types.SimpleNamespace(Stream=Stream, ExternalStream=External, stream=on, CUDAGraph=Graph,
                                 current_stream=lambda: current[0] or Stream(0), synchronize=lambda: None,
                                 memory_stats=lambda: {"allocation.all.allocated": allocated[0]})
    return types.SimpleNamespace(cuda=cuda), current


class Capture(unittest.TestCase):
    def setUp(self):
        graphs._streams.clear()
        self.addCleanup(graphs._streams.clear)
        self.addCleanup(setattr, ctypes, "CDLL", ctypes.CDLL)

    def setup(self, driver=True, **kw):
        self.log, self.allocated = [], [0]
        self.torch, self.current = fake_torch(self.log, self.allocated)
        self.drv = FakeDriver(self.log, **kw)
        ctypes.CDLL = (lambda name: self.drv) if driver else (lambda name: (_ for _ in ()).throw(OSError("no libcuda")))

    def fn(self, allocates=False, fails=False):
        def call():
            s = self.current[0]
            where = "current" if s is None else hex(s.cuda_stream)
            if self.drv.capturing is not None:
                where += " in driver capture"
                if fails:
                    raise RuntimeError("operation not permitted when stream is capturing")
            self.log.append("call on " + where)
            if allocates:
                self.allocated[0] += 1
            return "out"
        return call

    def test_driver_capture_when_nothing_allocates(self):
        """The warm call runs on the current stream; the capture is the driver's, thread-local, on one
        non-blocking stream of default priority, instantiated with no flags; the replay goes to the stream
        current at replay time; no pool stream, no torch capture."""
        self.setup()
        g, res, how = graphs.capture(self.torch, self.fn(), 2)
        self.assertEqual(how, graphs.BY_DRIVER)
        self.assertEqual(res, "out")
        self.assertEqual(self.log, ["driver stream flags=1", "call on current", "driver capture begin 0x100 mode=1",
                                    "call on 0x100 in driver capture", "call on 0x100 in driver capture",
                                    "driver capture end", "instantiate flags=0"])
        with self.torch.cuda.stream(self.torch.cuda.ExternalStream(0x555)):
            g.replay()
        self.assertEqual(self.log[-1], "graph launch on 0x555")
        graphs.capture(self.torch, self.fn(), 1)
        self.assertEqual(self.drv.streams, 1, "the capture stream is made once")

    def test_torch_capture_when_the_calls_allocate(self):
        """Calls that allocate from torch's caching allocator: the driver's graph is thrown away and
        torch.cuda.CUDAGraph captures on the same stream, and how says why."""
        self.setup()
        g, res, how = graphs.capture(self.torch, self.fn(allocates=True), 1)
        self.assertEqual(how, graphs.BY_TORCH % "the calls allocate")
        self.assertIn("graph destroyed", self.log)
        self.assertEqual(self.log[-3:], ["torch capture begin", "call on 0x100", "torch capture end"])
        self.assertNotIn("pool stream", self.log)

    def test_torch_capture_when_the_driver_capture_fails(self):
        self.setup()
        g, res, how = graphs.capture(self.torch, self.fn(fails=True), 1)
        self.assertEqual(how, graphs.BY_TORCH % "operation not permitted when stream is capturing")
        self.assertEqual(self.log[-3:], ["torch capture begin", "call on 0x100", "torch capture end"])

    def test_without_a_driver(self):
        """Without libcuda, or when it makes no stream, the capture stream is a pool stream and torch captures."""
        for driver, rc, why in ((False, 0, "no libcuda"), (True, 1, "cuStreamBeginCapture failed")):
            graphs._streams.clear()
            self.setup(driver=driver, rc_stream=rc)
            if driver:
                self.drv.cuStreamBeginCapture_v2 = lambda s, mode: 999
            g, res, how = graphs.capture(self.torch, self.fn(), 2)
            self.assertEqual(self.log.count("pool stream"), 1, self.log)
            self.assertEqual(how, graphs.BY_TORCH % why)
            self.assertEqual(res, "out")


if __name__ == "__main__":
    unittest.main()
