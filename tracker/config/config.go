// Package config reads .perfgate.yml: the suites a repository declares
// (command, kernel, builtin and python), its threshold, ignore and better overrides,
// and its baseline defaults. Errors name the file, the line and the key.
//
// Kernel suites are evaluated here into plain Cases (every expression of the
// sweep parameters computed); cmd/perfgate turns them into the GPU harness's
// types. This package imports tracker/model, tracker/ingest (for the
// format names a command suite may use), the standard library and
// gopkg.in/yaml.v3 only.
package config

import (
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// DefaultFile is the configuration file's name at a repository's root.
const DefaultFile = ".perfgate.yml"

// Config is a parsed .perfgate.yml.
type Config struct {
	// File is the path the configuration was read from (for messages).
	File string
	// Dir is the directory relative paths are resolved against: the
	// configuration file's directory.
	Dir string
	// Prepare lists shell commands run in Dir before any suite (builds,
	// code generation). perfgate ab runs them on each side.
	Prepare    []string
	Suites     []Suite
	Thresholds Thresholds
	// Ignore lists path.Match globs over "suite/name"; matches are left out.
	Ignore []string
	// Better overrides a benchmark's direction, first match wins.
	Better   []BetterOverride
	Baseline Baseline
	// warnings name the deprecated keys the file uses (Warnings).
	warnings []string
}

// Warnings name the deprecated keys c uses (baseline.runs), for the
// caller to show: "FILE: line N: KEY is deprecated: name it NEW". A nil
// c (no config) has none.
func (c *Config) Warnings() []string {
	if c == nil {
		return nil
	}
	return c.warnings
}

// Thresholds are the statistics settings; zero values mean "perfgate's default".
type Thresholds struct {
	Default    float64 // fraction: 0.10 = 10%
	Alpha      float64
	Correction string // "bh", "holm" or "none"
	MinSamples int
	// Inconclusive is the inconclusive policy: pass, neutral or fail
	// (compare.InconclusivePolicy; "" for the default).
	Inconclusive string
	// Overrides set the threshold of the benchmarks a glob matches, first match wins.
	Overrides []ThresholdOverride
}

// A ThresholdOverride sets the threshold of benchmarks matching Glob.
type ThresholdOverride struct {
	Glob      string
	Threshold float64
}

// A BetterOverride sets the direction of benchmarks matching Glob.
type BetterOverride struct {
	Glob   string
	Better model.Better
}

// Baseline holds the defaults of check and action for choosing baseline runs.
type Baseline struct {
	Branch  string // "" = the repository's default branch
	Jobs    int    // how many of the latest comparable jobs; 0 = perfgate's default
	History int    // jobs read for the run-to-run spread; 0 = perfgate's default
	Testbed string // "" = the current run's testbed
}

// A Suite is one entry of suites:; exactly one of Command, Kernel, Builtin, Python is set.
type Suite struct {
	Name    string
	Line    int // where the suite is declared, for messages
	Command *Command
	Kernel  *Kernel
	Builtin *Builtin
	Python  *Python
}

// A Command suite runs a shell command and parses what it produced.
type Command struct {
	Run    string // a shell command line, run with sh -c
	Dir    string // working directory, relative to Config.Dir
	Format string // an ingest format
	// Output is the file (or, for criterion, directory) the tool writes,
	// relative to Dir; "" means the command's standard output.
	Output  string
	Repeat  int // run the command this many times and pool the benchmarks
	Timeout time.Duration
	Env     []string // "KEY=value", added to perfgate's environment
	// Unit and Better describe json-samples output that does not say.
	Unit   string
	Better model.Better
	// Metric is the go test unit whose values are the samples (gotest only;
	// default ns/op), e.g. cpu-ns/op reported with b.ReportMetric.
	Metric string
}

// A Builtin suite runs one of perfgate's own GPU suites.
type Builtin struct {
	Suite   string
	Size    string // small | medium | large | ci
	DTypes  []string
	Filter  string // a regular expression over benchmark names
	Fast    bool
	MaxTime time.Duration
}
