package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels/measure"
)

func TestDiagnose(t *testing.T) {
	good := map[string]string{EnvNVMLAvailable: "yes", EnvOtherProcs: "none", EnvMIG: "disabled", EnvPersistence: "enabled",
		EnvComputeMode: "exclusive_process", EnvClockReasons: "none", EnvTemperature: "40", "cuda_header": "12.8"}
	if w := diagnose(good); len(w) != 0 {
		t.Fatalf("a well set-up GPU got warnings: %v", w)
	}
	tests := []struct {
		key, value, want string
	}{
		{EnvNVMLAvailable, "no", "NVML"},
		{EnvOtherProcs, "pid 12 (300 MiB)", "other processes"},
		{EnvMIG, "enabled", "MIG"},
		{EnvPersistence, "disabled", "persistence"},
		{EnvComputeMode, "default", "compute mode"},
		{EnvClockReasons, "sw_thermal", "held down"},
		{EnvTemperature, "85", "85 °C"},
		{"cuda_header", "14.0", "cuda.h 14.0"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range good {
				env[k] = v
			}
			env[tt.key] = tt.value
			w := diagnose(env)
			if len(w) != 1 || !strings.Contains(w[0], tt.want) {
				t.Errorf("%s=%s: warnings %v, want one mentioning %q", tt.key, tt.value, w, tt.want)
			}
		})
	}
}

func TestClockReasons(t *testing.T) {
	if got := clockReasons(0x4 | 0x40); !slices.Equal(got, []string{"sw_power_cap", "hw_thermal"}) {
		t.Errorf("got %v", got)
	}
	if got := clockReasons(0); got != nil {
		t.Errorf("no bits: %v", got)
	}
}

func TestHeaderVersion(t *testing.T) {
	for v, want := range map[int]string{12080: "12.8", 11040: "11.4", 13000: "13.0"} {
		if got := headerVersion(v); got != want {
			t.Errorf("headerVersion(%d) = %q, want %q", v, got, want)
		}
	}
}

func TestUserKernelPure(t *testing.T) {
	k := UserKernel{Suite: "mine", Name: "saxpy", File: "k.cu"}
	uc := UserCase{Params: map[string]string{"n": "1M", "block": "256"},
		Buffers: []UserBuffer{{Name: "x", DType: "fp32", Len: 4, Init: "random"}, {Name: "y", DType: "fp16", Len: 4, Output: true}},
		Args:    []UserArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "i32", Value: 4}},
		Grid:    [3]uint32{1, 1, 1}, Block: [3]uint32{256, 1, 1}}
	if got := userCase(k, uc).Name(measure.Cold); got != "saxpy/block=256/n=1M/mode=cold" {
		t.Errorf("name %q", got)
	}
	if err := validateUserCase(k, 0, uc); err != nil {
		t.Errorf("valid case: %v", err)
	}
	bad := []struct {
		mut  func(*UserCase)
		want string
	}{
		{func(c *UserCase) { c.Buffers = []UserBuffer{{Name: "x", DType: "fp8", Len: 1}} }, `dtype "fp8"`},
		{func(c *UserCase) { c.Buffers = []UserBuffer{{Name: "x", DType: "fp32", Len: 0}} }, "length 0"},
		{func(c *UserCase) { c.Args = []UserArg{{Buffer: 5}} }, "names buffer 5"},
		{func(c *UserCase) { c.Args = []UserArg{{Buffer: -1, DType: "int"}} }, `scalar argument 0: dtype "int"`},
		{func(c *UserCase) { c.Args = []UserArg{{Buffer: -1}} }, `scalar argument 0: dtype ""`},
		{func(c *UserCase) { c.Grid = [3]uint32{0, 1, 1} }, "no zero dimension"},
		{func(c *UserCase) {
			c.Buffers = []UserBuffer{{Name: "x", DType: "fp32", Len: 1, Init: "ones"}, {Name: "y", DType: "fp16", Len: 4}}
		}, `init "ones"`},
	}
	for i, tt := range bad {
		c := uc
		tt.mut(&c)
		if err := validateUserCase(k, 0, c); err == nil || !strings.Contains(err.Error(), "k.cu") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("bad case %d: %v, want an error naming k.cu and %q", i, err, tt.want)
		}
	}
	x := userBufferData(uc.Buffers[0], 1)
	for i := int64(0); i < 4; i++ {
		if v := decodeElem("fp32", x, i); v == 0 || v < -1 || v >= 1 {
			t.Errorf("random element %d = %g", i, v)
		}
	}
	if !pureOutput(uc.Buffers[1]) || pureOutput(UserBuffer{Output: true, Init: "random"}) {
		t.Error("pureOutput: an output with no init is pure; one with random init is in-out")
	}
	r := userBufferData(UserBuffer{DType: "i32", Len: 3, Init: "range"}, 0)
	if decodeElem("i32", r, 2) != 2 || scalarBits("i32", -1) != 0xffffffff || scalarBits("fp32", 1) != 0x3f800000 {
		t.Error("range init or scalar encoding wrong")
	}
}
