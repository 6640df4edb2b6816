package model

import (
	"math"
	"strings"
	"time"
)

// Schema is the value of the "schema" field of a results-v1 document.
const Schema = "perfgate.results/v1"

// Results is one run's results document: the run and its benchmarks.
type Results struct {
	Schema     string      `json:"schema"`
	Run        Run         `json:"run"`
	Benchmarks []Benchmark `json:"benchmarks"`
	// Summaries replace Benchmarks (then nil) in a run a store summarized
	// (BaselineQuery.SampleJobs), in the same order; SummaryKeys names
	// their keys and units. They are never written.
	Summaries   []BenchmarkSummary `json:"-"`
	SummaryKeys *SummaryKeys       `json:"-"`
}

// Run describes where and when a set of benchmarks ran.
type Run struct {
	// ID is unique per run; recording the same ID twice is idempotent.
	ID     string `json:"id"`
	Repo   string `json:"repo"`
	Commit string `json:"commit"`
	Branch string `json:"branch"`
	// PR is the pull request number; zero (omitted) outside pull requests.
	PR        int       `json:"pr,omitempty"`
	Event     string    `json:"event"`
	Testbed   string    `json:"testbed"`
	StartedAt time.Time `json:"started_at"`
	// Group ties together the shards of one sharded job (optional).
	Group string `json:"group,omitempty"`
	// Env is a free-form description of the machine; see the Env* keys.
	Env map[string]string `json:"env,omitempty"`
}

// ShortSHA abbreviates a commit hash to the 12 characters perfgate prints
// wherever it names a commit in text.
func ShortSHA(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// The events a run may come from.
const (
	EventPush             = "push"
	EventPullRequest      = "pull_request"
	EventWorkflowDispatch = "workflow_dispatch"
	EventSchedule         = "schedule"
	EventLocal            = "local"
)

// Events lists the valid values of Run.Event.
var Events = []string{EventPush, EventPullRequest, EventWorkflowDispatch, EventSchedule, EventLocal}

// Well-known keys of Run.Env. Producers may add any others.
const (
	EnvGPU        = "gpu"         // GPU model name, e.g. "NVIDIA H200"
	EnvDriver     = "driver"      // NVIDIA driver version, e.g. "580.159.04"
	EnvCUDA       = "cuda"        // CUDA driver API version, e.g. "13.0"
	EnvNVRTC      = "nvrtc"       // NVRTC version, e.g. "12.8"
	EnvCUDAHeader = "cuda_header" // cuda.h version compiled against
)

// Better says which direction of a benchmark's samples is an improvement.
type Better string

// The two directions.
const (
	Lower  Better = "lower"
	Higher Better = "higher"
)

// Benchmark is one benchmark's samples within a run.
type Benchmark struct {
	Suite   string            `json:"suite"`
	Name    string            `json:"name"`
	Params  map[string]string `json:"params,omitempty"`
	Unit    string            `json:"unit"`
	Better  Better            `json:"better"`
	Samples []float64         `json:"samples"`
	// Metrics are derived figures (GB/s, % of copy ceiling, …); not judged.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Info is free-form provenance (timing mode, stop reason, PTX hash, …).
	Info map[string]string `json:"info,omitempty"`
	// SummaryOnly marks samples that are per-run summaries (for example
	// means reported by a tool that keeps no raw data), not raw samples.
	SummaryOnly bool `json:"summary_only,omitempty"`
	// Error says why the benchmark produced no samples.
	Error string `json:"error,omitempty"`
}

// A RunSummary is all that the run-to-run spread uses of one run's samples
// of a benchmark, in their unit: how many, their median and their
// coefficient of variation (BaselineQuery.Summarize computes it).
type RunSummary struct {
	N          int
	Median, CV float64
}

// Key identifies a benchmark within a run: suite and name.
func (b *Benchmark) Key() Key { return Key{Suite: b.Suite, Name: b.Name} }

// A Key identifies a benchmark across runs.
type Key struct{ Suite, Name string }

// String returns "suite/name".
func (k Key) String() string { return k.Suite + "/" + k.Name }

// timeUnits maps the time units perfgate knows to their size in nanoseconds.
var timeUnits = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}

// IsTimeUnit reports whether unit is a unit of time (ns, us, µs, ms, s).
func IsTimeUnit(unit string) bool { _, ok := timeUnits[unit]; return ok }

// NanosPer returns how many nanoseconds one unit of the time unit is, or 0.
func NanosPer(unit string) float64 { return timeUnits[unit] }

// ValidSample reports whether v may appear as a sample in the given unit:
// finite, and not negative for time units.
func ValidSample(unit string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return !(v < 0 && IsTimeUnit(unit))
}

// ParseBetter parses "lower" or "higher" (case-insensitive).
func ParseBetter(s string) (Better, bool) {
	switch Better(strings.ToLower(s)) {
	case Lower:
		return Lower, true
	case Higher:
		return Higher, true
	}
	return "", false
}
