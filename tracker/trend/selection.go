package trend

import (
	"fmt"
	"path"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Selection is the history a trend reads and how it finds steps, as
// people give them (the flags of trend and chart trend).
type Selection struct {
	Pattern, Suite, Branch, Testbed, Repo string
	ThresholdPercent                      float64 // the smallest step, in percent
	MaxP                                  float64 // the largest p-value of a step
}

// A SelectionError names the setting (benchmark, step-threshold, step-p:
// the flags' names) that is wrong.
type SelectionError struct {
	Setting, Msg string
}

func (e *SelectionError) Error() string { return e.Setting + ": " + e.Msg }

// Query checks s and returns the store query (Since left for the caller,
// who owns the clock) and the step options, or a *SelectionError for the
// first bad setting.
func (s Selection) Query() (model.TrendQuery, Options, error) {
	switch {
	case s.Pattern == "":
		return model.TrendQuery{}, Options{}, &SelectionError{"benchmark", fmt.Sprintf("name the benchmark(s), e.g. %s 'add/dtype=fp32' ('*' for all)", model.Flag("benchmark"))}
	case !(s.ThresholdPercent > 0 && s.ThresholdPercent < 1000):
		return model.TrendQuery{}, Options{}, &SelectionError{"step-threshold", fmt.Sprintf("must be a percentage above 0, got %v", s.ThresholdPercent)}
	case !(s.MaxP > 0 && s.MaxP < 1):
		return model.TrendQuery{}, Options{}, &SelectionError{"step-p", fmt.Sprintf("must be a p-value between 0 and 1, got %v", s.MaxP)}
	}
	if _, err := path.Match(s.Pattern, ""); err != nil {
		return model.TrendQuery{}, Options{}, &SelectionError{"benchmark", fmt.Sprintf("%q is not a valid pattern: %v", s.Pattern, err)}
	}
	q := model.TrendQuery{Repo: s.Repo, Suite: s.Suite, Pattern: s.Pattern,
		Branch: strings.TrimSpace(s.Branch), Testbed: s.Testbed}
	return q, Options{Threshold: s.ThresholdPercent / 100, MaxP: s.MaxP}, nil
}
