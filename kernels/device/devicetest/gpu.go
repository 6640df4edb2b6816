// Package devicetest is a fake device.GPU on the CPU, for the tests of what
// runs on the device seam without a GPU: its memory is host memory, its
// kernels are Go functions registered by entry name, and it logs every call
// that reaches the device.
//
// It imports kernels/device and the standard library only.
package devicetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels/device"
)

// A GPU is a fake device.GPU. Its zero value has no SMs; set SMs and
// BlocksPerSM for setups that size their grids by them.
type GPU struct {
	// Kernels emulates kernels by entry name: Kernels[name](g, l) is one
	// launch of l. A kernel without one does nothing when launched.
	Kernels map[string]func(g *GPU, l device.Launch)
	// SMs is the SM count; BlocksPerSM is what every Func's MaxActiveBlocks
	// returns.
	SMs, BlocksPerSM int
	// AllocLimit, when set, is the most device memory in use at once: an
	// Alloc beyond it fails as out of memory.
	AllocLimit int64
	// LaunchTime is the GPU time of every launch, as Time measures it.
	LaunchTime time.Duration
	// Log has one line per call that reached the device, in order.
	Log []string

	bufs     []*buf
	next     device.Ptr
	kernels  int // made and not freed
	launches int // enqueued
}

var _ device.GPU = (*GPU)(nil)

// ErrOutOfMemory is Alloc's error beyond AllocLimit.
var ErrOutOfMemory = errors.New("out of memory")

// A buf is one allocation.
type buf struct {
	at   device.Ptr
	data []byte
}

// Allocations start far apart, so that a logged address names its
// allocation and offset and never looks like a size.
const span = 1 << 40

func (g *GPU) logf(format string, a ...any) { g.Log = append(g.Log, fmt.Sprintf(format, a...)) }

// Alloc allocates bytes (at least 16) of zeroed host memory.
func (g *GPU) Alloc(bytes int64) (device.Ptr, error) {
	var used int64
	for _, b := range g.bufs {
		used += int64(len(b.data))
	}
	if g.AllocLimit > 0 && used+max(bytes, 16) > g.AllocLimit {
		g.logf("alloc %d: out of memory", bytes)
		return 0, fmt.Errorf("alloc %d bytes: %w", bytes, ErrOutOfMemory)
	}
	g.next += span
	b := &buf{at: g.next, data: make([]byte, max(bytes, 16))}
	g.bufs = append(g.bufs, b)
	g.logf("alloc %d = %s", bytes, g.Name(b.at))
	return b.at, nil
}

// Free frees an allocation; freeing anything else panics.
func (g *GPU) Free(p device.Ptr) {
	i := slices.IndexFunc(g.bufs, func(b *buf) bool { return b.at == p })
	if i < 0 {
		panic(fmt.Sprintf("devicetest: free of %#x, not an allocation", uint64(p)))
	}
	g.logf("free %s", g.Name(p))
	g.bufs = slices.Delete(g.bufs, i, i+1)
}

// Memset8 sets bytes bytes from p to v.
func (g *GPU) Memset8(p device.Ptr, v byte, bytes int64) error {
	g.logf("memset8 %s %#x %d", g.Name(p), v, bytes)
	b, err := g.mem(p, bytes)
	if err != nil {
		return err
	}
	for i := range b {
		b[i] = v
	}
	return nil
}

// CopyHtoD copies src to dst.
func (g *GPU) CopyHtoD(dst device.Ptr, src []byte) error {
	g.logf("write %s %d", g.Name(dst), len(src))
	d, err := g.mem(dst, int64(len(src)))
	if err != nil {
		return err
	}
	copy(d, src)
	return nil
}

// CopyDtoD copies bytes bytes from src to dst.
func (g *GPU) CopyDtoD(dst, src device.Ptr, bytes int64) error {
	g.logf("copy %s %s %d", g.Name(dst), g.Name(src), bytes)
	d, err := g.mem(dst, bytes)
	if err != nil {
		return err
	}
	s, err := g.mem(src, bytes)
	if err != nil {
		return err
	}
	copy(d, s)
	return nil
}

// Read copies len(dst) bytes from src into dst.
func (g *GPU) Read(dst []byte, src device.Ptr) error {
	g.logf("read %s %d", g.Name(src), len(dst))
	s, err := g.mem(src, int64(len(dst)))
	if err != nil {
		return err
	}
	copy(dst, s)
	return nil
}

// Mem returns the device memory [p, p+bytes) for a kernel to read and
// write; outside an allocation it panics, as a kernel that reads there
// would fault.
func (g *GPU) Mem(p device.Ptr, bytes int64) []byte {
	b, err := g.mem(p, bytes)
	if err != nil {
		panic("devicetest: " + err.Error())
	}
	return b
}

func (g *GPU) mem(p device.Ptr, bytes int64) ([]byte, error) {
	for _, b := range g.bufs {
		if p >= b.at && int64(p-b.at)+bytes <= int64(len(b.data)) && bytes >= 0 {
			return b.data[p-b.at : int64(p-b.at)+bytes], nil
		}
	}
	return nil, fmt.Errorf("illegal address: %d bytes at %s", bytes, g.Name(p))
}

// Name writes an address as its allocation and offset ("buf2+64"); a value
// below every allocation (a size, a seed, a float's bits) is written in
// decimal.
func (g *GPU) Name(p device.Ptr) string {
	if p < span || p >= g.next+span {
		return fmt.Sprint(uint64(p))
	}
	name := fmt.Sprintf("buf%d", p/span-1)
	if off := p % span; off != 0 {
		name += fmt.Sprintf("+%d", off)
	}
	return name
}

// Live returns the allocations and kernels made and not freed.
func (g *GPU) Live() (bufs, kernels int) { return len(g.bufs), g.kernels }

// Module returns the module name; every entry point is in it.
func (g *GPU) Module(name string) (device.Module, error) {
	g.logf("module %s", name)
	return module{g: g, name: name}, nil
}

// Compile returns a module named file; every entry point is in it.
func (g *GPU) Compile(file, source string, options []string) (device.Module, error) {
	g.logf("compile %s %q", file, options)
	return module{g: g, name: file}, nil
}

// Kernel makes l ready; l.Func must be one of g's.
func (g *GPU) Kernel(l device.Launch) device.Kernel {
	l.Args = slices.Clone(l.Args)
	g.kernels++
	return &kernel{g: g, l: l}
}

// SMCount returns g.SMs.
func (g *GPU) SMCount() int { return g.SMs }

// A module is a fake module: its hash is its name and the entries'.
type module struct {
	g    *GPU
	name string
}

func (m module) Func(name string) (device.Func, error) { return &Func{g: m.g, Name: name}, nil }

func (m module) Hash(entries ...string) string { return m.name + ":" + strings.Join(entries, ",") }

// A Func is a fake kernel entry point.
type Func struct {
	g    *GPU
	Name string
	// Shared is the dynamic shared memory AllowShared allowed.
	Shared int
}

// MaxActiveBlocks returns the GPU's BlocksPerSM.
func (f *Func) MaxActiveBlocks(int) (int, error) { return f.g.BlocksPerSM, nil }

// AllowShared records bytes.
func (f *Func) AllowShared(bytes int) error {
	f.g.logf("allow %s shared %d", f.Name, bytes)
	f.Shared = bytes
	return nil
}

// A kernel is a launch made ready.
type kernel struct {
	g     *GPU
	l     device.Launch
	freed bool
}

func (k *kernel) Enqueue(n int) error {
	if k.freed {
		panic("devicetest: launch of a freed kernel")
	}
	name := k.l.Func.(*Func).Name
	args := make([]string, len(k.l.Args))
	for i, a := range k.l.Args {
		args[i] = k.g.Name(device.Ptr(a))
	}
	k.g.launches += n
	k.g.logf("launch %s grid %v block %v shared %d args [%s] ×%d", name, k.l.Grid, k.l.Block, k.l.Shared, strings.Join(args, " "), n)
	if emulate := k.g.Kernels[name]; emulate != nil {
		for range n {
			emulate(k.g, k.l)
		}
	}
	return nil
}

func (k *kernel) SetArg(i int, v uint64) { k.l.Args[i] = v }

func (k *kernel) Free() {
	if k.freed {
		panic("devicetest: kernel freed twice")
	}
	k.freed = true
	k.g.kernels--
}

// Time runs n repetitions of w and returns LaunchTime for each launch they
// enqueued.
func (g *GPU) Time(w device.Work, n int, held bool) (time.Duration, error) {
	g.logf("time %d held=%v", n, held)
	l0 := g.launches
	if err := w(n); err != nil {
		return 0, err
	}
	return time.Duration(g.launches-l0) * g.LaunchTime, nil
}

// FlushL2 does nothing but log.
func (g *GPU) FlushL2() error {
	g.logf("flush")
	return nil
}

// Capture returns a graph that replays n repetitions of w.
func (g *GPU) Capture(w device.Work, n int) (device.Graph, error) {
	g.logf("capture %d", n)
	return graph{w, n}, nil
}

// A graph replays its captured repetitions of a work.
type graph struct {
	w    device.Work
	reps int
}

func (gr graph) Replay(n int) error {
	for range n {
		if err := gr.w(gr.reps); err != nil {
			return err
		}
	}
	return nil
}

func (graph) Destroy() {}
