package kernels

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/perfgate/perfgate/kernels/suite"
)

// userDTypes are the element types a UserBuffer may have.
var userDTypes = []string{"fp32", "fp16", "bf16", "fp64", "i32", "u32", "i8", "u8"}

// userCase turns a UserKernel's sweep point into a suite.Case: the suite, the
// kernel's name, and its parameters in key order.
func userCase(k UserKernel, uc UserCase) suite.Case {
	c := suite.Case{Suite: k.Suite, Op: k.Name, RefParams: k.SpeedupVs}
	for _, key := range slices.Sorted(maps.Keys(uc.Params)) {
		c.Params = append(c.Params, suite.Param{K: key, V: uc.Params[key]})
	}
	return c
}

// UserBenchmarkName returns the name of a user benchmark: op, its params
// as k=v in key order, and mode=MODE. perfgate's Python harness names the
// benchmarks of a python suite the same way.
func UserBenchmarkName(op string, params map[string]string, mode string) string {
	return userCase(UserKernel{Name: op}, UserCase{Params: params}).Name(mode)
}

// UserBenchmarkNames returns the names of the benchmarks k measures, in
// the order it measures them (every case in the cold and batch timings), without
// a GPU: what perfgate run --config --list prints.
func UserBenchmarkNames(k UserKernel) []string {
	var out []string
	for _, uc := range k.Cases {
		c := userCase(k, uc)
		for _, m := range suite.Timings {
			out = append(out, c.Name(m))
		}
	}
	return out
}

// validateUserCase checks what the harness relies on before touching the GPU.
func validateUserCase(k UserKernel, i int, uc UserCase) error {
	where := fmt.Sprintf("%s: kernel %s, case %d", k.File, k.Name, i)
	for j, b := range uc.Buffers {
		if !slices.Contains(userDTypes, b.DType) {
			return fmt.Errorf("%s: buffer %q: dtype %q is not one of %v", where, b.Name, b.DType, userDTypes)
		}
		if b.Len <= 0 {
			return fmt.Errorf("%s: buffer %q: length %d must be positive", where, b.Name, b.Len)
		}
		if !slices.Contains([]string{"random", "range", "constant", "zero", ""}, b.Init) {
			return fmt.Errorf("%s: buffer %d (%q): init %q is not random, range, constant or zero", where, j, b.Name, b.Init)
		}
	}
	for j, a := range uc.Args {
		if a.Buffer >= len(uc.Buffers) || a.Buffer < -1 {
			return fmt.Errorf("%s: argument %d names buffer %d, but there are %d", where, j, a.Buffer, len(uc.Buffers))
		}
		// A scalar of an unknown type would be passed as fp32 bits: a wrong argument, not an error.
		if a.Buffer == -1 && !slices.Contains(userDTypes, a.DType) {
			return fmt.Errorf("%s: scalar argument %d: dtype %q is not one of %v", where, j, a.DType, userDTypes)
		}
	}
	for d := range 3 {
		if uc.Grid[d] == 0 || uc.Block[d] == 0 {
			return fmt.Errorf("%s: grid %v and block %v must have no zero dimension", where, uc.Grid, uc.Block)
		}
	}
	return nil
}

// userBufferData returns the initial contents of buffer b (host side):
// random values never zero (fp in [-1, 1), integers in [1, 100)), 0, 1, 2…
// for range, the value for constant, zeros for zero or no init.
func userBufferData(b UserBuffer, seed uint32) []byte {
	raw := make([]byte, b.Len*elemSize(b.DType))
	for i := int64(0); i < b.Len; i++ {
		var v float64
		switch b.Init {
		case "random":
			v = float64(randValue(seed, i, -1, 1))
			if isInt(b.DType) {
				v = float64(1 + int(99*(v+1)/2))
			}
		case "range":
			v = float64(i)
		case "constant":
			v = b.Value
		}
		encodeElem(b.DType, raw, i, v)
	}
	return raw
}

func isInt(dtype string) bool { return dtype[0] == 'i' || dtype[0] == 'u' }

// scalarBits encodes a scalar kernel argument into its 8-byte slot.
func scalarBits(dtype string, v float64) uint64 {
	var raw [8]byte
	encodeElem(dtype, raw[:], 0, v)
	return binary.LittleEndian.Uint64(raw[:])
}

// pureOutput reports whether an output buffer is written without being read
// (no initial contents were asked for), so it is poisoned before the check:
// an element the kernel forgets to write then fails it.
func pureOutput(b UserBuffer) bool { return b.Output && (b.Init == "" || b.Init == "zero") }
