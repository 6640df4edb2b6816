package kernels

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
)

// doctorReport is a Report as an H100 with two problems would give it
// (values from docs/results/h100-doctor.txt, then MIG on, another process and exclusive_process).
func doctorReport() Report {
	return Report{
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

// TestReportWrite: the golden report (testdata/doctor_report.txt; go test
// -update rewrites it), and the line a report without warnings ends with.
func TestReportWrite(t *testing.T) {
	var b bytes.Buffer
	doctorReport().Write(&b)
	golden.Check(t, "doctor_report.txt", b.Bytes())
	rep := doctorReport()
	rep.Warnings = nil
	b.Reset()
	rep.Write(&b)
	if !strings.HasSuffix(b.String(), "no warnings: this GPU is set up for stable measurements\n") {
		t.Errorf("without warnings: %q", b.String())
	}
}
