//go:build cuda

package kernels

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/tracker/model"
)

var ownPid = os.Getpid()

// Session owns the CUDA context. The context is bound to one OS thread, so a
// single goroutine, locked to its thread, makes every CUDA call; the methods
// hand it closures and wait.
type Session struct {
	work  chan func()
	exit  chan struct{}
	close sync.Once
	g     *gpu // touched only on the GPU goroutine
	env   map[string]string
}

// gpu is the state the GPU goroutine owns.
type gpu struct {
	dev         cu.Device
	ctx         cu.CUContext
	stream      cu.Stream
	start, stop cu.Event
	flush       cu.DevicePtr
	flushWords  int64
	flushValue  uint
	mon         *gpuMonitor
	flags       *hostFlags // the blocking kernel's release/timed-out flags
	block       *launch    // the blocking kernel (harness.cu)
	arch        string     // "compute_90"
	nvrtc       string     // "12.8"
	nvrtcLib    string     // the libnvrtc file loaded
	smCount     int
	cc          string // compute capability, e.g. "9.0"
	l2Bytes     int
	modules     map[string]*module
	sticky      error   // set once the context is lost
	ceiling     float64 // measured copy ceiling in GB/s (0: not yet)
	cacheDir    string
	blas        *cublas // loaded by the first cuBLAS benchmark
	// parent is the session's gpu when this one is a draw: a context of
	// its own (openDraw); nil for the session's.
	parent *gpu
}

// Open creates the CUDA context on device 0 (as CUDA_VISIBLE_DEVICES orders
// them) on a dedicated, locked OS thread.
func Open(ctx context.Context) (*Session, error) {
	s := &Session{work: make(chan func()), exit: make(chan struct{})}
	ready := make(chan error, 1)
	go s.loop(ready)
	if err := <-ready; err != nil {
		return nil, &model.InfraError{Op: "open GPU", Err: err}
	}
	return s, nil
}

func (s *Session) loop(ready chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(s.exit)
	g, err := openGPU()
	if err != nil {
		ready <- err
		return
	}
	s.g = g
	s.env = g.describe()
	ready <- nil
	for f := range s.work {
		f()
	}
	g.close()
}

// errClosed is returned by a Session used after Close.
var errClosed = errors.New("the GPU session is closed")

// do runs f on the GPU goroutine and returns its error.
func (s *Session) do(f func(g *gpu) error) error {
	res := make(chan error, 1)
	select {
	case <-s.exit:
		return errClosed
	default:
	}
	s.work <- func() {
		defer func() {
			if r := recover(); r != nil {
				res <- fmt.Errorf("panic on the GPU thread: %v\n%s", r, debug.Stack())
			}
		}()
		res <- f(s.g)
	}
	return <-res
}

func openGPU() (*gpu, error) {
	g := &gpu{modules: map[string]*module{}}
	var err error
	if g.dev, err = cu.GetDevice(0); err != nil {
		return nil, wrap("get device 0", err)
	}
	if g.ctx, err = g.dev.RetainPrimaryCtx(); err != nil {
		return nil, wrap("retain primary context", err)
	}
	if err = cu.SetCurrentContext(g.ctx); err != nil {
		return nil, wrap("set context", err)
	}
	if err = g.attributes(); err != nil {
		return nil, err
	}
	uuid, err := g.dev.UUID()
	if err != nil {
		return nil, wrap("device UUID", err)
	}
	g.mon, _ = openMonitor("GPU-" + uuid.String()) // without NVML the run says so in env
	if err := g.setUp(); err != nil {
		return nil, err
	}
	return g, nil
}

// openDraw makes a CUDA context of its own on g's device and sets up in it
// what the measuring loop needs (measure.DrawsFor), sharing g's attributes, NVML
// monitor, copy ceiling and compiled PTX. The new context is current; close
// destroys it, and the caller makes g's context current again.
func (g *gpu) openDraw() (*gpu, error) {
	ctx, err := g.dev.MakeContext(0)
	if err != nil {
		return nil, wrap("create a CUDA context (cuCtxCreate)", err)
	}
	d := &gpu{dev: g.dev, ctx: ctx, parent: g, modules: map[string]*module{}, mon: g.mon,
		arch: g.arch, nvrtc: g.nvrtc, nvrtcLib: g.nvrtcLib, smCount: g.smCount, cc: g.cc,
		l2Bytes: g.l2Bytes, ceiling: g.ceiling, cacheDir: g.cacheDir}
	if err := d.setUp(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// setUp makes the current context's stream, events, L2 flush buffer and
// blocking kernel.
func (g *gpu) setUp() error {
	var err error
	if g.stream, err = cu.MakeStream(cu.NonBlocking); err != nil {
		return wrap("create stream", err)
	}
	if g.start, err = cu.MakeEvent(cu.DefaultEvent); err != nil {
		return wrap("create event", err)
	}
	if g.stop, err = cu.MakeEvent(cu.DefaultEvent); err != nil {
		return wrap("create event", err)
	}
	// The L2 flush buffer: twice the L2 size, at least 64 MiB.
	g.flushWords = int64(max(2*g.l2Bytes, 64<<20)) / 4
	if g.flush, err = cu.MemAlloc(g.flushWords * 4); err != nil {
		return wrap("allocate L2 flush buffer", err)
	}
	return g.loadHarness()
}

// blockTimeout is how long the blocking kernel waits for the release.
const blockTimeout = 50 * time.Millisecond

// loadHarness compiles the blocking kernel and maps its flags.
func (g *gpu) loadHarness() error {
	m, err := g.loadBuiltin("harness")
	if err != nil {
		return err
	}
	fn, err := m.fn("pg_block")
	if err != nil {
		return err
	}
	if g.flags, err = newHostFlags(); err != nil {
		return err
	}
	g.block = &launch{fn: fn, grid: [3]uint32{1, 1, 1}, block: [3]uint32{1, 1, 1},
		params: newParams(uint64(g.flags.dev), uint64(g.flags.dev)+4, uint64(blockTimeout))}
	return nil
}

// attributes reads what the harness depends on: SM count, L2 size (the
// flush of the cold timing) and compute capability (the NVRTC target). Any failed
// read fails the session with the attribute named.
func (g *gpu) attributes() error {
	var failed error
	attr := func(a cu.DeviceAttribute, what string) int {
		v, err := g.dev.Attribute(a)
		if err != nil && failed == nil {
			failed = wrap("cuDeviceGetAttribute "+what, err)
		}
		return v
	}
	g.smCount = attr(cu.MultiprocessorCount, "multiprocessor count")
	g.l2Bytes = attr(cu.L2CacheSize, "L2 cache size")
	major, minor := attr(cu.ComputeCapabilityMajor, "compute capability"), attr(cu.ComputeCapabilityMinor, "compute capability")
	if failed != nil {
		return failed
	}
	g.arch, g.cc = fmt.Sprintf("compute_%d%d", major, minor), fmt.Sprintf("%d.%d", major, minor)
	lb, err := loadNVRTC()
	if err != nil {
		return err
	}
	g.nvrtc, g.nvrtcLib = lb.version, lb.path
	return nil
}

func (g *gpu) close() {
	if g.blas != nil {
		g.blas.close()
	}
	for _, m := range g.modules {
		m.mod.Unload()
	}
	if g.flush != 0 {
		cu.MemFree(g.flush)
	}
	if g.block != nil {
		g.block.params.free()
	}
	if g.flags != nil {
		g.flags.free()
	}
	if g.start != (cu.Event{}) {
		cu.DestroyEvent(&g.start)
	}
	if g.stop != (cu.Event{}) {
		cu.DestroyEvent(&g.stop)
	}
	if g.stream != (cu.Stream{}) {
		g.stream.Destroy()
	}
	if g.parent != nil { // a draw: its context goes, the monitor is the session's
		g.ctx.Destroy()
		return
	}
	g.mon.close()
	g.dev.ReleasePrimaryCtx()
}

// describe builds the environment fingerprint.
func (g *gpu) describe() map[string]string {
	env := map[string]string{}
	// A value the driver does not give is left out, never written as zero.
	if name, err := g.dev.Name(); err == nil {
		env[model.EnvGPU] = name
	}
	if u, err := g.dev.UUID(); err == nil {
		env[EnvGPUUUID] = "GPU-" + u.String()
	}
	domain, err1 := g.dev.Attribute(cu.PciDomainID)
	bus, err2 := g.dev.Attribute(cu.PciBusID)
	slot, err3 := g.dev.Attribute(cu.PciDeviceID)
	if err1 == nil && err2 == nil && err3 == nil {
		env[EnvPCIBusID] = fmt.Sprintf("%04x:%02x:%02x.0", domain, bus, slot)
	}
	env[EnvSMCount] = strconv.Itoa(g.smCount)
	env[EnvL2Bytes] = strconv.Itoa(g.l2Bytes)
	if mem, err := g.dev.TotalMem(); err == nil {
		env[EnvMemoryBytes] = strconv.FormatInt(mem, 10)
	}
	env[EnvCompute] = g.cc
	env[model.EnvCUDA] = headerVersion(cu.Version())
	env[model.EnvNVRTC] = g.nvrtc
	env[EnvNVRTCLib] = g.nvrtcLib
	env[model.EnvCUDAHeader] = headerVersion(cuHeaderVersion())
	env[EnvNVRTCOptions] = strings.Join(nvrtcOptions(g.arch), " ")
	env[EnvConnections] = connections()
	env[EnvCPU] = cpuModel()
	env[EnvGo] = runtime.Version()
	env[EnvGOMAXPROCS] = strconv.Itoa(runtime.GOMAXPROCS(0))
	g.mon.describe(env)
	return env
}

// Env returns the environment fingerprint for run.env, refreshed (clocks,
// temperature, processes) at the time of the call.
func (s *Session) Env() map[string]string {
	env := maps.Clone(s.env)
	s.do(func(g *gpu) error {
		g.mon.describe(env)
		if g.ceiling > 0 {
			env[EnvCopyCeiling] = strconv.FormatFloat(g.ceiling, 'f', 1, 64)
		}
		return nil
	})
	return env
}

// Doctor returns the environment and the warnings about it.
func (s *Session) Doctor() (Report, error) {
	env := s.Env()
	return Report{Env: env, Warnings: diagnose(env)}, nil
}

// Close releases the context and stops the GPU goroutine.
func (s *Session) Close() error {
	s.close.Do(func() { close(s.work) })
	<-s.exit
	return nil
}

// errContextLost marks benchmarks that could not run because an earlier
// fault destroyed the CUDA context.
var errContextLost = errors.New("the CUDA context was lost after an earlier fault")

// ready returns the sticky error, if any, wrapped for a benchmark's error text.
func (g *gpu) ready() error {
	if g.sticky != nil {
		return fmt.Errorf("%w: %v", errContextLost, g.sticky)
	}
	return nil
}

// afterFault probes the context after a failed benchmark; a context that no
// longer synchronizes is lost for the rest of the session.
func (g *gpu) afterFault() {
	if err := ctxHealthy(); err != nil {
		g.sticky = err
	}
}
