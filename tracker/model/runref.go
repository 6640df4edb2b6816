package model

import (
	"fmt"
	"strings"
	"time"
)

// A RunRef names a stored run in reports: which runs a comparison used.
type RunRef struct {
	ID        string    `json:"id"`
	Commit    string    `json:"commit"`
	Branch    string    `json:"branch"`
	Testbed   string    `json:"testbed"`
	StartedAt time.Time `json:"started_at"`
}

// Ref returns the RunRef of r.
func (r *Run) Ref() RunRef {
	return RunRef{ID: r.ID, Commit: r.Commit, Branch: r.Branch, Testbed: r.Testbed, StartedAt: r.StartedAt}
}

// IsBaselineCandidate reports whether a run may serve as baseline for
// branch: it ran on that branch, outside a pull request, from a push, a
// schedule or a recorded manual dispatch. Pull-request runs never do.
func (r *Run) IsBaselineCandidate(branch string) bool {
	return r.Branch == branch && r.PR == 0 && r.Event != EventPullRequest
}

// Failed reports whether no benchmark of the run produced samples (every one
// reported an error, or there are none). A failed run is stored but never
// serves as a baseline: "the latest K successful runs".
func (r *Results) Failed() bool {
	for i := range r.Benchmarks {
		if len(r.Benchmarks[i].Samples) > 0 {
			return false
		}
	}
	return true
}

// A Fingerprint is the part of a run's environment that decides whether two
// runs may be compared: the testbed (runner label), the GPU model, the major
// version of the driver and the CUDA driver API version.
type Fingerprint struct {
	Testbed     string `json:"testbed"`
	GPU         string `json:"gpu,omitempty"`
	DriverMajor string `json:"driver_major,omitempty"`
	CUDA        string `json:"cuda,omitempty"`
}

// FingerprintOf extracts the fingerprint of a run.
func FingerprintOf(r *Run) Fingerprint {
	driver := r.Env[EnvDriver]
	major, _, _ := strings.Cut(driver, ".")
	return Fingerprint{Testbed: r.Testbed, GPU: r.Env[EnvGPU], DriverMajor: major, CUDA: r.Env[EnvCUDA]}
}

// Comparable reports whether runs with fingerprints a and b may be compared,
// and if not, why. Fields unknown on either side (empty) do not block a
// comparison: CPU-only and imported runs carry no GPU description.
func Comparable(a, b Fingerprint) (bool, string) {
	if a.Testbed != b.Testbed {
		return false, fmt.Sprintf("testbed %q vs %q", a.Testbed, b.Testbed)
	}
	for _, f := range []struct{ what, x, y string }{
		{"GPU", a.GPU, b.GPU},
		{"driver major version", a.DriverMajor, b.DriverMajor},
		{"CUDA version", a.CUDA, b.CUDA},
	} {
		if f.x != "" && f.y != "" && f.x != f.y {
			return false, fmt.Sprintf("%s %q vs %q", f.what, f.x, f.y)
		}
	}
	return true, ""
}
