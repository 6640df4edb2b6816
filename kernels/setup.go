package kernels

import (
	"fmt"
	"math"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// A prepared benchmark is ready to time: inputs filled, output checked
// against the CPU reference, and the work to repeat.
type prepared struct {
	work device.Work
	ops  int // operations per repetition (samples are per op)
	// launches is the number of kernel launches (or graph launches) of one
	// repetition (0: one); it bounds the repetitions of one sample
	// (measure.HeldLimit, measure.CapturedLimit).
	launches int
	// stream says the work is timed as stream launches, not replayed from
	// a captured graph (device.Timer): the launch strategies under test (one
	// launch per op or step) and works that are CUDA graphs already.
	stream bool
	// chunks, when set, are one repetition of a long launch sequence split
	// into pieces of at most measure.ChunkLaunches launches, in order: each
	// is queued behind the blocking kernel and timed on its own, and the
	// sample is the sum of their GPU times (device.Timer).
	chunks  []device.Work
	meta    suite.WorkMeta
	cleanup func()
}

// A preparer sets up one case of a suite on a GPU: its buffers filled, its
// output checked, its work ready to time.
type preparer func(d device.GPU, c suite.Case) (*prepared, error)

// A setup is one case's setup on a GPU: the device memory it allocated,
// freed all at once, and the steps the suites' setups share (fill the
// inputs, poison the output, run once, check against the CPU reference).
type setup struct {
	gpu  device.GPU
	bufs []device.Ptr
}

// alloc allocates bytes of device memory, freed by free.
func (s *setup) alloc(bytes int64) (device.Ptr, error) {
	p, err := s.gpu.Alloc(bytes)
	if err != nil {
		return 0, err
	}
	s.bufs = append(s.bufs, p)
	return p, nil
}

// free frees what alloc allocated.
func (s *setup) free() {
	for _, p := range s.bufs {
		s.gpu.Free(p)
	}
	s.bufs = nil
}

// launch enqueues l once.
func (s *setup) launch(l device.Launch) error {
	k := s.gpu.Kernel(l)
	defer k.Free()
	return k.Enqueue(1)
}

// fill writes the random stream seed, in [lo, hi), into n elements of dtype
// at p, with the module's pg_fill kernel (common.cu).
func (s *setup) fill(m device.Module, p device.Ptr, dtype string, n int64, seed uint32, lo, hi float32) error {
	fn, err := m.Func("pg_fill_" + dtype)
	if err != nil {
		return err
	}
	return s.launch(device.Launch{Func: fn, Grid: [3]uint32{uint32(min(int64(s.gpu.SMCount())*32, int64(grid1D(n)))), 1, 1}, Block: [3]uint32{256, 1, 1},
		Args: []uint64{uint64(p), uint64(n), uint64(seed), f32bits(lo), f32bits(hi)}})
}

// poison sets every byte of an output to 0xFF (NaN in every float type), so
// an element the kernel forgets to write fails the check.
func (s *setup) poison(p device.Ptr, bytes int64) error {
	if err := s.gpu.Memset8(p, 0xff, bytes); err != nil {
		return fmt.Errorf("poison output: %w", err)
	}
	return nil
}

// readback waits for the stream and copies bytes from p to the host.
func (s *setup) readback(p device.Ptr, bytes int64) ([]byte, error) {
	host := make([]byte, bytes)
	return host, s.gpu.Read(host, p)
}

// checkOnce poisons the output, runs the work once and runs check.
func (s *setup) checkOnce(p *prepared, out device.Ptr, bytes int64, check func() error) error {
	if err := s.poison(out, bytes); err != nil {
		return err
	}
	if err := p.work(1); err != nil {
		return err
	}
	return check()
}

// verifyChunk is the most output verify copies to the host at once. Read in
// one piece, the two 1 GiB copies of the copy-ceiling measurement (every
// suite but memory runs it first) took `perfgate run --suite S --size ci` to
// a peak RSS of 2.2–2.3 GiB on the H100; in pieces, 359–463 MiB.
const verifyChunk = 64 << 20

// verify compares the elements idx of an n-element dtype output at p with
// want(i), rounded to dtype, within tol. It reads the output back in pieces
// of at most verifyChunk bytes (one pass when idx is ascending, as
// checkIndices and sampleIndices make it).
func (s *setup) verify(p device.Ptr, dtype string, n int64, idx []int64, tol tolerance, want func(i int64) float32) error {
	es := elemSize(dtype)
	per := max(verifyChunk/es, 1)
	got := make([]float32, len(idx))
	exp := make([]float32, len(idx))
	buf := make([]byte, min(per, n)*es)
	var raw []byte
	first := int64(-1) // the element raw starts at
	for k, i := range idx {
		if first < 0 || i < first || i >= first+int64(len(raw))/es {
			first = i / per * per
			raw = buf[:min(per, n-first)*es]
			if err := s.gpu.Read(raw, p+device.Ptr(first*es)); err != nil {
				return err
			}
		}
		got[k] = decodeElem(dtype, raw, i-first)
		exp[k] = roundTo(dtype, want(i))
	}
	return checkClose(got, exp, idx, tol)
}

// residentGrid is how many blocks of fn at block threads fit on the GPU at
// once (a grid-stride kernel launches no more), capped at want.
func (s *setup) residentGrid(fn device.Func, block int, want int64) (uint32, error) {
	per, err := fn.MaxActiveBlocks(block)
	if err != nil {
		return 0, err
	}
	if per < 1 {
		return 0, fmt.Errorf("a block of %d threads does not fit on an SM (registers)", block)
	}
	return uint32(min(want, int64(per*s.gpu.SMCount()))), nil
}

// f32bits puts a float32 into a kernel argument slot.
func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// grid1D returns the number of 256-thread blocks that cover threads threads.
func grid1D(threads int64) uint32 {
	return uint32(min(max((threads+255)/256, 1), math.MaxInt32))
}
