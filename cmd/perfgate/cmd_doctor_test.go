package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
)

// doctorReport is a Report as an H100 with two problems would give it
// (values from docs/results/h100-doctor.txt, then MIG on, another process and exclusive_process).
func doctorReport() kernels.Report {
	return kernels.Report{
		Env: map[string]string{
			"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "cuda": "13.0", "nvrtc": "13.0",
			"cuda_header": "12.8", "sm_clock_mhz": "1980", "sm_clock_max_mhz": "1980", "mig": "enabled",
			"persistence": "enabled", "compute_mode": "exclusive_process", "gpu_other_processes": "pid 4242 (512 MiB)",
			"clock_event_reasons": "none", "nvml": "yes",
		},
		Warnings: []string{
			"other processes are using the GPU (pid 4242 (512 MiB)): they compete for SMs and memory bandwidth",
			"MIG is enabled: a MIG slice has a fraction of the SMs and bandwidth, not comparable with a whole GPU",
		},
	}
}

func TestWriteDoctorReport(t *testing.T) {
	var b bytes.Buffer
	if err := writeDoctorReport(&b, doctorReport(), false); err != nil {
		t.Fatalf("without --strict warnings are not an error: %v", err)
	}
	golden(t, "doctor_report.txt", b.String())
}

func TestDoctorStrict(t *testing.T) {
	tests := []struct {
		name     string
		warnings []string
		strict   bool
		wantCode int // 0: no error
		wantLine string
	}{
		{"warnings under --strict exit 1", doctorReport().Warnings, true, exitRegression, "2 warnings:"},
		{"warnings without --strict exit 0", doctorReport().Warnings, false, 0, "2 warnings:"},
		{"no warnings under --strict exit 0", nil, true, 0, "no warnings: this GPU is set up for stable measurements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := doctorReport()
			rep.Warnings = tt.warnings
			var b bytes.Buffer
			err := writeDoctorReport(&b, rep, tt.strict)
			code := 0
			var ee *exitError
			if errors.As(err, &ee) {
				code = ee.code
			} else if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if code != tt.wantCode || !strings.Contains(b.String(), tt.wantLine) {
				t.Errorf("exit %d, output\n%s\nwant exit %d and %q", code, b.String(), tt.wantCode, tt.wantLine)
			}
		})
	}
}

func TestDoctorUsage(t *testing.T) {
	code, _, errs := runCmd(t, "doctor", "now")
	if code != 2 || !strings.Contains(errs, `doctor: unexpected argument "now"`) {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the argument", code, errs)
	}
}
