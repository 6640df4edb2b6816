package kernels

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/device/devicetest"
)

// fakeSaxpy is saxpy(x, y, a, n): y = a·x + y, fp32 (pure: y = a·x, y not
// read); skip leaves one element as it was (-1: none).
func fakeSaxpy(pure bool, skip int64) func(*devicetest.GPU, device.Launch) {
	return func(g *devicetest.GPU, l device.Launch) {
		n := int64(int32(l.Args[3]))
		x, y := g.Mem(device.Ptr(l.Args[0]), 4*n), g.Mem(device.Ptr(l.Args[1]), 4*n)
		for i := range n {
			switch {
			case i == skip:
			case pure:
				encodeElem("fp32", y, i, float64(f32arg(l.Args[2])*decodeElem("fp32", x, i)))
			default:
				encodeElem("fp32", y, i, float64(f32arg(l.Args[2])*decodeElem("fp32", x, i)+decodeElem("fp32", y, i)))
			}
		}
	}
}

func saxpyCase(n int64, yInit string) UserCase {
	return UserCase{
		Buffers: []UserBuffer{{Name: "x", DType: "fp32", Len: n, Init: "random"}, {Name: "y", DType: "fp32", Len: n, Init: yInit, Output: true}},
		Args:    []UserArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "fp32", Value: 2.5}, {Buffer: -1, DType: "i32", Value: float64(n)}},
		Grid:    [3]uint32{uint32((n + 255) / 256), 1, 1}, Block: [3]uint32{256, 1, 1},
		Reference: &UserReference{Entry: "saxpy_ref"},
	}
}

// TestUserKernelSetupOnTheFake: the reference runs on copies of the
// outputs, the kernel on its own buffers (poisoned when they are pure
// outputs), and a kernel that differs from the reference in one element
// fails the check.
func TestUserKernelSetupOnTheFake(t *testing.T) {
	const n = 4096
	k := UserKernel{Suite: "user", Name: "saxpy", File: "saxpy.cu", Source: "…", Entry: "saxpy", Options: []string{"-DX"}}
	launch := func(entry, y string) string {
		return fmt.Sprintf("launch %s grid [16 1 1] block [256 1 1] shared 0 args [buf0 %s %d %d] ×1", entry, y, f32bits(2.5), n)
	}
	for _, tc := range []struct {
		name, yInit string
		skip        int64
		want        []string // the calls that reach the device
		err         string
	}{
		{"in-out", "random", -1, []string{`compile saxpy.cu ["-DX"]`, "write buf0 16384", "write buf1 16384",
			`compile saxpy.cu (reference) ["-DX"]`, "write buf2 16384", launch("saxpy_ref", "buf2"), launch("saxpy", "buf1")}, ""},
		{"output", "", -1, []string{`compile saxpy.cu ["-DX"]`, "write buf0 16384", "write buf1 16384",
			`compile saxpy.cu (reference) ["-DX"]`, "write buf2 16384", "memset8 buf1 0xff 16384", launch("saxpy_ref", "buf2"), launch("saxpy", "buf1")}, ""},
		{"wrong", "random", 1000, nil, `output "y" differs from the reference saxpy_ref`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newFake()
			pure := tc.yInit == ""
			g.Kernels["saxpy_ref"], g.Kernels["saxpy"] = fakeSaxpy(pure, -1), fakeSaxpy(pure, tc.skip)
			p, err := prepareUser(g, k, saxpyCase(n, tc.yInit))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want %q", err, tc.err)
				}
				done(t, g, nil)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer done(t, g, p)
			if got := calls(g, "compile", "write", "memset8", "launch"); !slices.Equal(got, tc.want) {
				t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if p.meta.PTXHash != "saxpy.cu:saxpy" || p.meta.Info["checked_against"] != "saxpy_ref" {
				t.Errorf("meta %+v", p.meta)
			}
		})
	}
}
