package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
)

// doctorGPU is a fake GPU whose environment is an H100's with two
// problems (values from docs/results/h100-doctor.txt, then MIG on and
// another process), as kernels.Diagnose reads it.
type doctorGPU struct{ hashGPU }

func (doctorGPU) Env() map[string]string {
	return map[string]string{
		"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "cuda": "13.0", "nvrtc": "13.0",
		"cuda_header": "12.8", "sm_clock_mhz": "1980", "sm_clock_max_mhz": "1980", "mig": "enabled",
		"persistence": "enabled", "compute_mode": "exclusive_process", "gpu_other_processes": "pid 4242 (512 MiB)",
		"clock_event_reasons": "none", "nvml": "yes",
	}
}

// TestDoctorStrict: warnings exit 3 under --strict only (an environment
// problem, not the regression code 1); the report is
// kernels.Report.Write's (tested there).
func TestDoctorStrict(t *testing.T) {
	old := openGPU
	openGPU = func(context.Context) (runner.GPU, func(), error) { return &doctorGPU{}, func() {}, nil }
	t.Cleanup(func() { openGPU = old })
	n := len(kernels.Diagnose(doctorGPU{}.Env()))
	if n == 0 {
		t.Fatal("the fake environment gives no warnings")
	}
	for _, tt := range []struct {
		args     []string
		wantCode int
	}{
		{[]string{"doctor", "--strict"}, cli.ExitInfra},
		{[]string{"doctor"}, 0},
	} {
		code, out, errs := runCmd(t, tt.args...)
		if code != tt.wantCode || !strings.Contains(out, fmt.Sprintf("%d warnings:", n)) || !strings.Contains(out, "MIG is enabled") {
			t.Errorf("%v: exit %d, stdout\n%s\nstderr %q; want exit %d and %d warnings", tt.args, code, out, errs, tt.wantCode, n)
		}
	}
}

func TestDoctorUsage(t *testing.T) {
	code, _, errs := runCmd(t, "doctor", "now")
	if code != 2 || !strings.Contains(errs, `doctor: unexpected argument "now"`) {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the argument", code, errs)
	}
}
