package model

import "testing"

func TestComparable(t *testing.T) {
	base := Fingerprint{Testbed: "gpu-1", GPU: "NVIDIA H200", DriverMajor: "580", CUDA: "13.0"}
	for _, tc := range []struct {
		name string
		fp   Fingerprint
		ok   bool
	}{
		{"same", base, true},
		{"unknown fields do not block", Fingerprint{Testbed: "gpu-1"}, true},
		{"other testbed", Fingerprint{Testbed: "gpu-2", GPU: "NVIDIA H200", DriverMajor: "580", CUDA: "13.0"}, false},
		{"other gpu", Fingerprint{Testbed: "gpu-1", GPU: "NVIDIA H100 80GB HBM3", DriverMajor: "580", CUDA: "13.0"}, false},
		{"other driver major", Fingerprint{Testbed: "gpu-1", GPU: "NVIDIA H200", DriverMajor: "570", CUDA: "13.0"}, false},
		{"other cuda", Fingerprint{Testbed: "gpu-1", GPU: "NVIDIA H200", DriverMajor: "580", CUDA: "12.8"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, why := Comparable(base, tc.fp)
			if ok != tc.ok || (!ok && why == "") {
				t.Errorf("Comparable = %v, %q; want %v with a reason when false", ok, why, tc.ok)
			}
		})
	}
	r := &Run{Testbed: "gpu-1", Env: map[string]string{EnvGPU: "NVIDIA H200", EnvDriver: "580.159.04", EnvCUDA: "13.0"}}
	if got := FingerprintOf(r); got != base {
		t.Errorf("FingerprintOf = %+v, want %+v", got, base)
	}
}

func TestIsBaselineCandidate(t *testing.T) {
	for _, tc := range []struct {
		run  Run
		want bool
	}{
		{Run{Branch: "main", Event: EventPush}, true},
		{Run{Branch: "main", Event: EventSchedule}, true},
		{Run{Branch: "main", Event: EventPullRequest, PR: 7}, false},
		{Run{Branch: "main", Event: EventWorkflowDispatch, PR: 7}, false},
		{Run{Branch: "dev", Event: EventPush}, false},
	} {
		if got := tc.run.IsBaselineCandidate("main"); got != tc.want {
			t.Errorf("%+v: IsBaselineCandidate = %v, want %v", tc.run, got, tc.want)
		}
	}
}
