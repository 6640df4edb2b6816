package runner

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// listConfig writes the suites of cfg (those only names; all when none)
// with the benchmarks each would measure: a builtin suite's at its size,
// dtypes and filter, a kernel suite's every sweep point in both modes, a
// command suite's command (its benchmarks are what the command prints).
// No GPU is needed. Names only does not match are an input error.
func listConfig(w io.Writer, cfg *config.Config, only []string) error {
	for _, n := range only {
		if !slices.ContainsFunc(cfg.Suites, func(s config.Suite) bool { return s.Name == n }) {
			return model.SettingError("suite", "%q is not a suite of %s", n, cfg.File)
		}
	}
	for i := range cfg.Suites {
		s := &cfg.Suites[i]
		if len(only) > 0 && !slices.Contains(only, s.Name) {
			continue
		}
		names, desc, err := configSuiteBenchmarks(cfg, s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", s.Name, desc)
		for _, b := range names {
			fmt.Fprintf(w, "  %s\n", b)
		}
	}
	return nil
}

// configSuiteBenchmarks returns the benchmark names of one suite of cfg
// and a line describing it.
func configSuiteBenchmarks(cfg *config.Config, s *config.Suite) ([]string, string, error) {
	switch {
	case s.Builtin != nil:
		b := s.Builtin
		o := kernels.Options{Size: b.Size, DTypes: b.DTypes, Fast: b.Fast}
		if b.Filter != "" {
			o.Filter = regexp.MustCompile(b.Filter) // config checked it compiles
		}
		for _, info := range kernels.ListFor(o) {
			if info.Name == b.Suite {
				return info.Benchmarks, fmt.Sprintf("builtin suite %s at size %s", b.Suite, cmpOr(b.Size, kernels.SizeMedium)), nil
			}
		}
		return nil, "", inputErr("%s line %d: suites: %s: %q is not a built-in suite (have %s)", cfg.File, s.Line, s.Name, b.Suite, strings.Join(kernels.SuiteNames(), ", "))
	case s.Kernel != nil:
		uks, err := userKernels(cfg, s)
		if err != nil {
			return nil, "", err
		}
		var names []string
		for _, uk := range uks {
			names = append(names, kernels.UserBenchmarkNames(uk)...)
		}
		return names, fmt.Sprintf("kernel %s of %s", s.Kernel.Entry, s.Kernel.Source), nil
	}
	if p := s.Python; p != nil {
		names, err := pythonNames(cfg, s)
		return names, fmt.Sprintf("python %s of %s (perfgate's Python harness)", p.Function, p.Module), err
	}
	c := s.Command
	return nil, fmt.Sprintf("command suite (%s output; its benchmarks are what it prints): %s", c.Format, c.Run), nil
}

// cmpOr returns a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
