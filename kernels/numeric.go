package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Inputs are filled on the GPU by pg_fill_* (common.cu) from a counter-based
// hash, so no large host arrays cross the bus; the CPU reference recomputes
// any element from (seed, index) bit for bit with randValue.

// fmix32 is MurmurHash3's finaliser; common.cu has the same function.
func fmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// randValue is element i of the random stream seed, uniform in [lo, hi),
// never exactly zero (a zero would hide a kernel that writes nothing).
func randValue(seed uint32, i int64, lo, hi float32) float32 {
	h := fmix32(uint32(i) ^ fmix32(uint32(uint64(i)>>32)+seed))
	u := float32(h>>8) * (1.0 / 16777216)
	x := float32(u*(hi-lo)) + lo // the conversion forbids fusing into an FMA, as __fmul_rn does on the GPU
	if x == 0 {
		x = 0.25
	}
	return x
}

// f32ToF16 rounds f to IEEE half precision, to nearest even (cvt.rn.f16.f32).
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127
	man := b & 0x7fffff
	switch {
	case exp == 128: // Inf or NaN
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp > 15:
		return sign | 0x7c00
	case exp >= -14: // normal half
		h := uint32(exp+15)<<10 | man>>13
		return sign | uint16(roundShift(h, man&0x1fff, 13))
	case exp >= -25: // subnormal half
		full := man | 0x800000
		shift := uint(-exp - 1) // 14..24: the value is full * 2^(exp-23), half subnormal unit is 2^-24
		return sign | uint16(roundShift(full>>shift, full&(1<<shift-1), shift))
	}
	return sign
}

// roundShift rounds q (the kept bits) by the dropped bits rem of width w, to nearest even.
func roundShift(q, rem uint32, w uint) uint32 {
	half := uint32(1) << (w - 1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	return q
}

// f16ToF32 widens an IEEE half exactly.
func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0 && man == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: man * 2^-24
		v := float32(man) * (1.0 / 16777216)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// f32ToBF16 rounds f to bfloat16, to nearest even, as common.cu's from_f does.
func f32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return 0x7fc0
	}
	u += 0x7fff + (u>>16)&1
	return uint16(u >> 16)
}

// bf16ToF32 widens a bfloat16 exactly.
func bf16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// roundTo rounds an fp32 value to dtype and back: the value the GPU stores.
func roundTo(dtype string, f float32) float32 {
	switch dtype {
	case "fp16":
		return f16ToF32(f32ToF16(f))
	case "bf16":
		return bf16ToF32(f32ToBF16(f))
	}
	return f
}

// elemSize returns the size in bytes of one element of dtype.
func elemSize(dtype string) int64 {
	switch dtype {
	case "fp16", "bf16", "i16", "u16":
		return 2
	case "fp64", "i64", "u64":
		return 8
	case "i8", "u8":
		return 1
	}
	return 4
}

// A tolerance bounds |got - want| by Abs + Rel·|want|.
type tolerance struct{ Abs, Rel float64 }

// toleranceFor returns the comparison tolerance for outputs of dtype: a few
// units in the last place of that type (the GPU's expf/tanhf are within 2 ulp,
// and a half/bfloat result may round the other way from a value on a tie).
func toleranceFor(dtype string) tolerance {
	switch dtype {
	case "fp16":
		return tolerance{Abs: 1e-4, Rel: 2e-3}
	case "bf16":
		return tolerance{Abs: 1e-3, Rel: 1.6e-2}
	case "fp64":
		return tolerance{Abs: 1e-12, Rel: 1e-12}
	case "i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64":
		return tolerance{}
	}
	return tolerance{Abs: 1e-6, Rel: 1e-5}
}

// A mismatchError reports the first output element outside the tolerance.
type mismatchError struct {
	Index     int64
	Got, Want float64
	Tol       tolerance
	Bad       int64 // how many elements were checked and wrong
}

func (e *mismatchError) Error() string {
	return fmt.Sprintf("wrong result: element %d is %g, want %g (tolerance %g + %g·|want|; %d elements wrong)",
		e.Index, e.Got, e.Want, e.Tol.Abs, e.Tol.Rel, e.Bad)
}

// checkClose compares got against want element by element. NaN never passes
// (an output left poisoned is NaN).
func checkClose(got, want []float32, idx []int64, tol tolerance) error {
	var first *mismatchError
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if math.Abs(g-w) <= tol.Abs+tol.Rel*math.Abs(w) {
			continue
		}
		if first == nil {
			first = &mismatchError{Index: idx[i], Got: g, Want: w, Tol: tol}
		}
		first.Bad++
	}
	if first != nil {
		return first
	}
	return nil
}

// checkIndices picks which elements of an n-element output to check: all of
// them up to 1M, else the first and last 64K and 64K spread between.
func checkIndices(n int64) []int64 {
	const all, edge = 1 << 20, 1 << 16
	if n <= all {
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(i)
		}
		return idx
	}
	idx := make([]int64, 0, 3*edge)
	for i := int64(0); i < edge; i++ {
		idx = append(idx, i)
	}
	step := (n - 2*edge) / edge
	for i := int64(0); i < edge; i++ {
		idx = append(idx, edge+i*step)
	}
	for i := n - edge; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// decodeElem reads element i of a little-endian dtype array as float32.
func decodeElem(dtype string, raw []byte, i int64) float32 {
	switch dtype {
	case "fp16":
		return f16ToF32(binary.LittleEndian.Uint16(raw[2*i:]))
	case "bf16":
		return bf16ToF32(binary.LittleEndian.Uint16(raw[2*i:]))
	case "fp64":
		return float32(math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:])))
	case "i64":
		return float32(int64(binary.LittleEndian.Uint64(raw[8*i:])))
	case "u64":
		return float32(binary.LittleEndian.Uint64(raw[8*i:]))
	case "i32":
		return float32(int32(binary.LittleEndian.Uint32(raw[4*i:])))
	case "u32":
		return float32(binary.LittleEndian.Uint32(raw[4*i:]))
	case "i8":
		return float32(int8(raw[i]))
	case "u8":
		return float32(raw[i])
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
}

// encodeElem writes v as element i of a little-endian dtype array.
func encodeElem(dtype string, raw []byte, i int64, v float64) {
	switch dtype {
	case "fp16":
		binary.LittleEndian.PutUint16(raw[2*i:], f32ToF16(float32(v)))
	case "bf16":
		binary.LittleEndian.PutUint16(raw[2*i:], f32ToBF16(float32(v)))
	case "fp64":
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(v))
	case "i64":
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(int64(v)))
	case "u64":
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
	case "i32":
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(int32(v)))
	case "u32":
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
	case "i8":
		raw[i] = byte(int8(v))
	case "u8":
		raw[i] = byte(v)
	default:
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(v)))
	}
}

// sampleIndices picks up to k element indices of n: all of them when n <= k,
// else the first k/2 and k/2 spread over the rest.
func sampleIndices(n, k int64) []int64 {
	if n <= k {
		return checkIndices(n)
	}
	idx := make([]int64, 0, k)
	for i := int64(0); i < k/2; i++ {
		idx = append(idx, i)
	}
	step := (n - k/2) / (k / 2)
	for i := int64(0); i < k/2; i++ {
		idx = append(idx, k/2+i*step)
	}
	return idx
}
