package check

import (
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// Settings are what a check is asked to do: the baseline to read and the
// verdict options.
type Settings struct {
	Query   Query
	Compare compare.Options
}

// The names of the settings a .perfgate.yml may supply, as Explicit keys:
// the flag names of perfgate check.
const (
	SetBranch       = "baseline-branch"
	SetJobs         = "baseline-jobs"
	SetTestbed      = "baseline-testbed"
	SetHistory      = "history"
	SetThreshold    = "threshold"
	SetAlpha        = "alpha"
	SetCorrection   = "correction"
	SetMinSamples   = "min-samples"
	SetInconclusive = "inconclusive"
)

// ApplyConfig returns s with the defaults of cfg where the user did not
// choose (explicit holds the names above of the settings given on the
// command line, in PERFGATE_* variables or as action inputs): the baseline
// section, thresholds.default, alpha, correction, min_samples and
// inconclusive; and,
// always, its ignore globs and its per-benchmark thresholds and better
// overrides, resolved for the benchmarks keys.
//
// In the file, a benchmark takes its threshold from the first matching
// thresholds.benchmarks glob and, independently, its direction from the
// first matching better glob. compare.Options applies only the first
// matching Override as a whole, so the two lists are resolved here, per
// benchmark of keys, into exact-key overrides.
func ApplyConfig(s Settings, cfg *config.Config, explicit map[string]bool, keys []model.Key) Settings {
	if cfg == nil {
		return s
	}
	b, t, o := cfg.Baseline, cfg.Thresholds, &s.Compare
	set := func(name string, ok bool, apply func()) {
		if ok && !explicit[name] {
			apply()
		}
	}
	set(SetBranch, b.Branch != "", func() { s.Query.Branch = b.Branch })
	set(SetJobs, b.Jobs > 0, func() { s.Query.Jobs = b.Jobs })
	set(SetTestbed, b.Testbed != "", func() { s.Query.Testbed = b.Testbed })
	set(SetHistory, b.History > 0, func() { o.HistoryJobs = b.History; s.Query.History = b.History })
	set(SetThreshold, t.Default > 0, func() { o.Threshold = t.Default })
	set(SetAlpha, t.Alpha > 0, func() { o.Alpha = t.Alpha })
	set(SetCorrection, t.Correction != "", func() { o.Correction = t.Correction })
	set(SetMinSamples, t.MinSamples > 0, func() { o.MinSamples = t.MinSamples })
	set(SetInconclusive, t.Inconclusive != "", func() { o.Inconclusive = compare.InconclusivePolicy(t.Inconclusive) })
	o.Ignore = append(append([]string(nil), o.Ignore...), cfg.Ignore...)
	o.Overrides = append(append([]compare.Override(nil), o.Overrides...), overrides(cfg, keys)...)
	return s
}

// overrides resolves the file's threshold and better lists into one
// exact-key override per benchmark of keys that either list matches.
func overrides(cfg *config.Config, keys []model.Key) []compare.Override {
	seen := map[string]bool{}
	var names []string
	for _, k := range keys {
		if s := k.String(); !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	sort.Strings(names)
	var out []compare.Override
	for _, key := range names {
		ov := compare.Override{Glob: escapeGlob(key), Threshold: -1}
		for _, th := range cfg.Thresholds.Overrides {
			if compare.Match(th.Glob, key) {
				ov.Threshold = th.Threshold
				break
			}
		}
		for _, b := range cfg.Better {
			if compare.Match(b.Glob, key) {
				ov.Better = b.Better
				break
			}
		}
		if ov.Threshold >= 0 || ov.Better != "" {
			out = append(out, ov)
		}
	}
	return out
}

// escapeGlob quotes the path.Match metacharacters of s so it matches only itself.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Keys lists the benchmark keys of results documents.
func Keys(rs ...[]*model.Results) []model.Key {
	var keys []model.Key
	for _, side := range rs {
		for _, r := range side {
			for i := range r.Benchmarks {
				keys = append(keys, r.Benchmarks[i].Key())
			}
		}
	}
	return keys
}
