package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// maxRunsListed bounds the baseline runs named one by one.
const maxRunsListed = 10

// runLines describes the candidate and baseline runs and the runs passed
// over. esc escapes user text; code sets a commit SHA in monospace.
func runLines(c *compare.Comparison, esc, code func(string) string) []string {
	var lines []string
	if c.Candidate.ID != "" || c.Candidate.Commit != "" {
		s := "candidate: " + ref(c.Candidate, code)
		if c.Candidate.Branch != "" {
			s += " on " + esc(c.Candidate.Branch)
		}
		if c.Candidate.Testbed != "" {
			s += ", testbed " + esc(c.Candidate.Testbed)
		}
		if n := len(c.CandidateRuns); n > 1 {
			s += fmt.Sprintf(" (%d rounds: separate runs, pooled for the sample tests, replicates for the test across runs)", n)
		}
		lines = append(lines, s)
	}
	if n := len(c.Baseline); n > 0 {
		var refs []string
		for _, r := range c.Baseline[:min(n, maxRunsListed)] {
			refs = append(refs, ref(r, code))
		}
		if n > maxRunsListed {
			refs = append(refs, fmt.Sprintf("and %d more", n-maxRunsListed))
		}
		s := "baseline: " + count(n, "run")
		if b := commonBranch(c.Baseline); b != "" {
			s += " of " + esc(b)
		}
		lines = append(lines, s+": "+strings.Join(refs, ", "))
	} else {
		lines = append(lines, "baseline: no runs")
	}
	if n := len(c.History); n > 0 {
		lines = append(lines, fmt.Sprintf("history: %s of the baseline branch informed the run-to-run spread only", count(n, "older run")))
	}
	for _, in := range c.Incomparable {
		lines = append(lines, "passed over (not comparable): "+ref(in.Run, code)+": "+esc(in.Reason))
	}
	if c.Options.Interleaved {
		s := "interleaved A/B: base and head ran in alternating rounds in one job on one machine"
		if tb := c.Candidate.Testbed; tb != "" {
			s += " (testbed " + esc(tb) + ")"
		}
		lines = append(lines, s)
	}
	return lines
}

// ref names a run by short commit and start time.
func ref(r model.RunRef, code func(string) string) string {
	s := code(shortCommit(r.Commit))
	if r.Commit == "" {
		s = code(r.ID)
	}
	if !r.StartedAt.IsZero() {
		s += " " + r.StartedAt.UTC().Format("2006-01-02 15:04")
	}
	return s
}

func commonBranch(rs []model.RunRef) string {
	for _, r := range rs[1:] {
		if r.Branch != rs[0].Branch {
			return ""
		}
	}
	return rs[0].Branch
}

// knownEnv lists the environment keys reports show first, in this order.
var knownEnv = []string{model.EnvGPU, model.EnvDriver, model.EnvCUDA, model.EnvNVRTC, model.EnvCUDAHeader}

// envKeys returns the keys of both environments: the well-known ones first,
// then the rest alphabetically.
func envKeys(c *compare.Comparison) []string {
	var rest []string
	for _, env := range []map[string]string{c.BaselineEnv, c.CandidateEnv} {
		for k := range env {
			if !slices.Contains(knownEnv, k) && !slices.Contains(rest, k) {
				rest = append(rest, k)
			}
		}
	}
	slices.Sort(rest)
	var keys []string
	for _, k := range knownEnv {
		_, b := c.BaselineEnv[k]
		_, d := c.CandidateEnv[k]
		if b || d {
			keys = append(keys, k)
		}
	}
	return append(keys, rest...)
}

// envDiffs returns the keys whose values differ between the two sides. A
// key that one side does not report is unknown there, not different.
func envDiffs(c *compare.Comparison) []string {
	var out []string
	for _, k := range envKeys(c) {
		if envDiffers(c, k) {
			out = append(out, k)
		}
	}
	return out
}

// method describes how the verdicts were reached, in one paragraph.
func method(c *compare.Comparison) string {
	o := c.Options
	tested := 0
	for _, r := range c.Results {
		if !math.IsNaN(r.PAdjusted) {
			tested++
		}
	}
	if tested == 0 && o.Correction != compare.CorrectionNone {
		return "no benchmark had enough samples on both sides to be tested; " + fmt.Sprintf("at least %d samples per side are needed.", o.MinSamples)
	}
	corr := map[string]string{
		compare.CorrectionBH:   "adjusted with Benjamini-Hochberg across the " + count(tested, "tested benchmark"),
		compare.CorrectionHolm: "adjusted with Holm across the " + count(tested, "tested benchmark"),
		compare.CorrectionNone: "not adjusted for multiple testing",
	}[o.Correction]
	t := threshold(o.Threshold)
	if len(o.Overrides) > 0 {
		t += " (or the benchmark's override)"
	}
	return fmt.Sprintf("each benchmark is judged across runs, every round its own process: the log of each run's median, the candidate's mean "+
		"against the mean of main's newest jobs at its current level (the history is cut where main's level moved, isolated outlier jobs left out), "+
		"in a t test whose run-to-run spread is measured within those levels (successive job means and the rounds) and moderated towards the other "+
		"benchmarks' spreads (where no job had two rounds, raised to theirs, never lowered); without replicates a spread of ±%s is assumed and the pooled samples' Mann-Whitney test must agree; p %s; "+
		"baseline and candidate = the geometric means of the run medians that test compares (the baseline's over its jobs), "+
		"change = candidate/baseline − 1 (baseline/candidate − 1 where higher is better, so positive always means worse) with its %s confidence interval; "+
		"regression when the adjusted worse-direction p < %v and the change > +%s on the log scale, improvement the mirror image; "+
		"too noisy to judge when the interval reaches past the threshold and the spread hides a change of its size at the level the adjustment "+
		"reaches (not yet gateable with fewer than %d jobs of history); warn when not significant but beyond ±%s, when significant before the "+
		"adjustment with an interval past it, or when the median or slow tail moved past it; at least %d samples per side; "+
		"p = adjusted one-sided p in the direction of the change; summary-only benchmarks get a ratio of medians and at most a warning.",
		pctAbs(o.RunSpreadPrior), corr, level(o.CILevel()), o.Alpha, t, compare.MinGateJobs, threshold(o.Threshold), o.MinSamples)
}

// envWarnings returns the keys of envDiffs worth a warning: the well-known
// ones (GPU, driver, CUDA, NVRTC) always, the others only where the
// baseline runs agree among themselves. A reading that already moves from
// one baseline run to the next (temperature_c, a measured copy ceiling) is
// run-to-run variation, not a changed environment; the table still shows it.
func envWarnings(c *compare.Comparison) []string {
	var out []string
	for _, k := range envDiffs(c) {
		if slices.Contains(knownEnv, k) || !baselineVaries(c, k) {
			out = append(out, k)
		}
	}
	return out
}

// baselineVaries reports whether the baseline runs disagree on key k
// (compare joins their distinct values with " / ").
func baselineVaries(c *compare.Comparison, k string) bool {
	return strings.Contains(c.BaselineEnv[k], " / ")
}

// envDiffers reports whether the candidate's value of key k is one that no
// baseline run had. A side whose runs disagree has its distinct values
// joined by " / " (see compare.Comparison).
func envDiffers(c *compare.Comparison, k string) bool {
	b, d := c.BaselineEnv[k], c.CandidateEnv[k]
	if b == "" || d == "" || b == d {
		return false
	}
	base := strings.Split(b, " / ")
	for _, v := range strings.Split(d, " / ") {
		if !slices.Contains(base, v) {
			return true
		}
	}
	return false
}
