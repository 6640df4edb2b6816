package main

import (
	"context"
	"flag"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// applyConfig merges a .perfgate.yml's statistics settings into o: its
// thresholds.default, alpha, correction and min_samples where the command
// line did not set the flag (flagsSet), its ignore globs, and its
// thresholds.benchmarks and better overrides.
//
// In the file, a benchmark takes its threshold from the first matching
// thresholds.benchmarks glob and, independently, its direction from the
// first matching better glob. compare.Options applies only the first
// matching Override as a whole, so the two lists are resolved here, per
// benchmark of keys, into exact-key overrides.
func applyConfig(o compare.Options, cfg *config.Config, flagsSet map[string]bool, keys []model.Key) compare.Options {
	t := cfg.Thresholds
	if t.Default > 0 && !flagsSet["threshold"] {
		o.Threshold = t.Default
	}
	if t.Alpha > 0 && !flagsSet["alpha"] {
		o.Alpha = t.Alpha
	}
	if t.Correction != "" && !flagsSet["correction"] {
		o.Correction = t.Correction
	}
	if t.MinSamples > 0 && !flagsSet["min-samples"] {
		o.MinSamples = t.MinSamples
	}
	o.Ignore = append(append([]string(nil), o.Ignore...), cfg.Ignore...)
	seen := map[string]bool{}
	var names []string
	for _, k := range keys {
		if s := k.String(); !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	sort.Strings(names)
	for _, key := range names {
		ov := compare.Override{Glob: escapeGlob(key), Threshold: -1}
		for _, th := range t.Overrides {
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
			o.Overrides = append(o.Overrides, ov)
		}
	}
	return o
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

// resultKeys lists the benchmark keys of results documents.
func resultKeys(rs ...[]*model.Results) []model.Key {
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

// flagsGiven returns the names of the flags set on the command line.
func flagsGiven(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// explicitSettings returns the names of the flags set on the command line or
// through their environment variable (envs maps flag names to variables):
// both are the user's explicit choice and win over a config file.
func explicitSettings(fset *flag.FlagSet, e *env, envs map[string]string) map[string]bool {
	set := flagsGiven(fset)
	for name, key := range envs {
		if strings.TrimSpace(e.Getenv(key)) != "" {
			set[name] = true
		}
	}
	return set
}

// loadOptionalConfig loads path, or, when path is empty, the
// .perfgate.yml config.Find finds, if any (nil: none).
func loadOptionalConfig(ctx context.Context, path string) (*config.Config, error) {
	if path != "" {
		return config.Load(path)
	}
	return config.LoadFound(ctx, "")
}
