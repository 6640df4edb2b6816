package kernels

import (
	"slices"
	"testing"
)

func TestPreRunFindings(t *testing.T) {
	healthy := map[string]string{EnvNVMLAvailable: "yes", EnvOtherProcs: "none", EnvMIG: "disabled", EnvPersistence: "enabled",
		EnvComputeMode: "exclusive_process", EnvClockReasons: "none", EnvTemperature: "40"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range healthy {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name               string
		env                map[string]string
		blocking, advisory int
	}{
		{"healthy", healthy, 0, 0},
		{"another process", with(EnvOtherProcs, "4242 python3 (2048 MiB)"), 1, 0},
		{"clocks held down", with(EnvClockReasons, "sw_thermal,hw_slowdown"), 1, 0},
		{"idle clocks are fine", with(EnvClockReasons, "gpu_idle"), 0, 0},
		{"MIG", with(EnvMIG, "enabled"), 1, 0},
		{"hot", with(EnvTemperature, "85"), 1, 0},
		{"default compute mode is advice", with(EnvComputeMode, "default"), 0, 1},
		{"persistence off is advice", with(EnvPersistence, "disabled"), 0, 1},
		{"no NVML is advice", with(EnvNVMLAvailable, "no"), 0, 1},
		{"both, blocking first", with(EnvComputeMode, "default", EnvOtherProcs, "1 x"), 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := PreRunFindings(tt.env)
			var b, a int
			for _, f := range fs {
				if f.Blocking {
					b++
				} else {
					a++
				}
			}
			if b != tt.blocking || a != tt.advisory {
				t.Errorf("%d blocking, %d advisory (%+v); want %d, %d", b, a, fs, tt.blocking, tt.advisory)
			}
			if !slices.IsSortedFunc(fs, func(x, y PreRunFinding) int {
				if x.Blocking == y.Blocking {
					return 0
				}
				if x.Blocking {
					return -1
				}
				return 1
			}) {
				t.Errorf("blocking findings are not first: %+v", fs)
			}
		})
	}
}
