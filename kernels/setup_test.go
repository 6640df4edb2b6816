package kernels

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/device/devicetest"
	"github.com/perfgate/perfgate/kernels/suite"
)

// The fake kernels below do on the CPU what the suites' kernels do
// (cu/*.cu), reading their arguments in the kernels' order, so that a setup
// on the fake passes its check only when it launches what it should, on the
// buffers it should.

// f32arg reads a float32 argument slot.
func f32arg(v uint64) float32 { return math.Float32frombits(uint32(v)) }

// fakeFill is pg_fill_<dtype>(p, n, seed, lo, hi) (common.cu).
func fakeFill(dtype string) func(*devicetest.GPU, device.Launch) {
	return func(g *devicetest.GPU, l device.Launch) {
		n := int64(l.Args[1])
		out := g.Mem(device.Ptr(l.Args[0]), n*elemSize(dtype))
		for i := range n {
			encodeElem(dtype, out, i, float64(randValue(uint32(l.Args[2]), i, f32arg(l.Args[3]), f32arg(l.Args[4]))))
		}
	}
}

// fakeElementwise is <op>_<dtype>(a, b, out, n) (elementwise.cu); wrong
// leaves the last element unwritten.
func fakeElementwise(op, dtype string, wrong bool) func(*devicetest.GPU, device.Launch) {
	return func(g *devicetest.GPU, l device.Launch) {
		n, es := int64(l.Args[3]), elemSize(dtype)
		a, b, out := g.Mem(device.Ptr(l.Args[0]), n*es), g.Mem(device.Ptr(l.Args[1]), n*es), g.Mem(device.Ptr(l.Args[2]), n*es)
		if wrong {
			n--
		}
		for i := range n {
			encodeElem(dtype, out, i, float64(cpuOp(op, decodeElem(dtype, a, i), decodeElem(dtype, b, i))))
		}
	}
}

func newFake() *devicetest.GPU {
	g := &devicetest.GPU{SMs: 4, BlocksPerSM: 1, Kernels: map[string]func(*devicetest.GPU, device.Launch){}}
	for _, dt := range DTypes {
		g.Kernels["pg_fill_"+dt] = fakeFill(dt)
	}
	return g
}

// done runs p's cleanup and checks it freed everything the setup made.
func done(t *testing.T, g *devicetest.GPU, p *prepared) {
	t.Helper()
	if p != nil {
		p.cleanup()
	}
	if bufs, kernels := g.Live(); bufs != 0 || kernels != 0 {
		t.Errorf("%d allocations and %d kernels left after the setup's cleanup", bufs, kernels)
	}
}

// calls returns the calls in g's log of the kinds named (launch, memset8,
// copy, …), and clears the log.
func calls(g *devicetest.GPU, kinds ...string) []string {
	var out []string
	for _, l := range g.Log {
		if kind, _, _ := strings.Cut(l, " "); slices.Contains(kinds, kind) {
			out = append(out, l)
		}
	}
	g.Log = nil
	return out
}

func TestElementwiseSetupOnTheFake(t *testing.T) {
	for _, dt := range DTypes {
		for _, op := range []string{"add", "gelu"} {
			t.Run(op+"/"+dt, func(t *testing.T) {
				g := newFake()
				g.Kernels[op+"_"+dt] = fakeElementwise(op, dt, false)
				const n = 4096
				es := elemSize(dt)
				p, err := prepareElementwise(g, suite.Case{Suite: "elementwise", Op: op, DType: dt, N: n})
				if err != nil {
					t.Fatal(err)
				}
				defer done(t, g, p)
				// 16 bytes a thread, 256 threads a block; the fills' grids are at
				// most 32 blocks an SM.
				grid := n * es / 16 / 256
				want := []string{
					"module elementwise",
					fmt.Sprintf("alloc %d = buf0", n*es), fmt.Sprintf("alloc %d = buf1", n*es), fmt.Sprintf("alloc %d = buf2", n*es),
					fmt.Sprintf("launch pg_fill_%s grid [16 1 1] block [256 1 1] shared 0 args [buf0 %d %d %d %d] ×1", dt, n, seedA, f32bits(-2), f32bits(2)),
					fmt.Sprintf("launch pg_fill_%s grid [16 1 1] block [256 1 1] shared 0 args [buf1 %d %d %d %d] ×1", dt, n, seedB, f32bits(-2), f32bits(2)),
					fmt.Sprintf("memset8 buf2 0xff %d", n*es),
					fmt.Sprintf("launch %s_%s grid [%d 1 1] block [256 1 1] shared 0 args [buf0 buf1 buf2 %d] ×1", op, dt, grid, n),
					fmt.Sprintf("read buf2 %d", n*es),
				}
				if got := g.Log; !slices.Equal(got, want) {
					t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				inputs := 2.0
				if op == "gelu" {
					inputs = 1
				}
				if p.meta.Bytes != (inputs+1)*float64(n*es) || p.meta.PTXHash != "elementwise:"+op+"_"+dt || p.ops != 1 {
					t.Errorf("meta %+v, ops %d", p.meta, p.ops)
				}
				g.Log = nil
				if err := p.work(3); err != nil {
					t.Fatal(err)
				}
				if got := g.Log; len(got) != 1 || !strings.HasPrefix(got[0], "launch "+op) || !strings.HasSuffix(got[0], "×3") {
					t.Errorf("work(3) made %q, want the op's launch ×3", got)
				}
			})
		}
	}
}

// TestElementwiseSetupChecks: a kernel that leaves an element unwritten
// fails the setup's check (the output was poisoned), and a setup that
// fails frees what it made.
func TestElementwiseSetupChecks(t *testing.T) {
	g := newFake()
	g.Kernels["add_fp32"] = fakeElementwise("add", "fp32", true)
	p, err := prepareElementwise(g, suite.Case{Suite: "elementwise", Op: "add", DType: "fp32", N: 4096})
	var me *mismatchError
	if !errors.As(err, &me) || me.Bad != 1 {
		t.Errorf("prepare = %v, %v; want a mismatch on 1 element", p, err)
	}
	done(t, g, nil)

	g = newFake()
	g.AllocLimit = 2 * 4096 * 4
	if _, err := prepareElementwise(g, suite.Case{Suite: "elementwise", Op: "add", DType: "fp32", N: 4096}); !errors.Is(err, devicetest.ErrOutOfMemory) {
		t.Errorf("the third buffer beyond the memory: err %v, want %v", err, devicetest.ErrOutOfMemory)
	}
	done(t, g, nil)
}

func TestMemorySetupOnTheFake(t *testing.T) {
	const n = 1 << 12 // floats
	copyCall := fmt.Sprintf("copy buf1 buf0 %d", 4*n)
	launch := fmt.Sprintf("launch copy_float4 grid [4 1 1] block [256 1 1] shared 0 args [buf0 buf1 %d] ×", n/4)
	for _, tc := range []struct {
		op, work, hash string
		work2          []string // the calls of two repetitions
	}{
		{"memcpy_dtod", copyCall, "", []string{copyCall, copyCall}},
		{"copy_float4", launch + "1", "memory:copy_float4", []string{launch + "2"}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			g := newFake()
			g.Kernels["copy_float4"] = func(g *devicetest.GPU, l device.Launch) {
				copy(g.Mem(device.Ptr(l.Args[1]), 16*int64(l.Args[2])), g.Mem(device.Ptr(l.Args[0]), 16*int64(l.Args[2])))
			}
			p, err := prepareMemory(g, suite.Case{Suite: "memory", Op: tc.op, N: n})
			if err != nil {
				t.Fatal(err)
			}
			defer done(t, g, p)
			want := []string{
				fmt.Sprintf("launch pg_fill_fp32 grid [16 1 1] block [256 1 1] shared 0 args [buf0 %d %d %d %d] ×1", n, seedA, f32bits(-2), f32bits(2)),
				fmt.Sprintf("memset8 buf1 0xff %d", 4*n),
				tc.work,
			}
			if got := calls(g, "launch", "memset8", "copy"); !slices.Equal(got, want) {
				t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if err := p.work(2); err != nil {
				t.Fatal(err)
			}
			if got := calls(g, "launch", "copy"); !slices.Equal(got, tc.work2) {
				t.Errorf("work(2) made %q, want %q", got, tc.work2)
			}
			if p.meta.Bytes != 2*4*n || p.meta.PTXHash != tc.hash {
				t.Errorf("meta %+v", p.meta)
			}
		})
	}
}

// TestAttentionSetupOnTheFake: the prefill shape gets flash2 with Q, K and
// V tiles in dynamic shared memory it is allowed first, and the naive path
// for the comparison; a kernel that writes nothing fails the CPU check, and
// the setup frees what it made.
func TestAttentionSetupOnTheFake(t *testing.T) {
	g := newFake()
	sh := mha(1, 2, 1024, 128)
	c := suite.Case{Suite: "attention", Op: "tiled", DType: "fp16",
		Params: append([]suite.Param{{K: "dtype", V: "fp16"}}, shapeParams(sh, false)...)}
	_, err := prepareAttention(g, c)
	var me *mismatchError
	if !errors.As(err, &me) {
		t.Errorf("err %v, want a mismatch against the CPU reference", err)
	}
	done(t, g, nil)
	shared := (128 + 4*64) * (128 + 8) * 2
	want := []string{
		"allow naive_pv_fp16_d128 shared 53248", // 2·64·(72+128+8)·2: P and V tiles, double-buffered
		fmt.Sprintf("allow flash2_fp16_d128 shared %d", shared),
		"memset8 buf3 0xff 524288",
		fmt.Sprintf("launch flash2_fp16_d128 grid [8 2 1] block [128 1 1] shared %d args [buf0 buf1 buf2 buf3 1024 %d 1] ×1", shared, f32bits(float32(math.Log2E/math.Sqrt(128)))),
	}
	if got := calls(g, "allow", "memset8", "launch"); len(got) < 4 || !slices.Equal(got[len(got)-4:], want) {
		t.Errorf("calls %q: want them to end with %q", got, want)
	}
}
