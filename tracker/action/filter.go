package action

import (
	"context"
	"regexp"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// A suiteFilteredSource is a baseline source that keeps only the benchmarks
// of the suites only matches: a run of the suites a filter selected is
// judged against the same suites of the baseline, not reported as missing
// every other one.
type suiteFilteredSource struct {
	src  history.BaselineSource
	only *regexp.Regexp
}

// FilteredBaseline returns src itself when only is nil.
func FilteredBaseline(src history.BaselineSource, only *regexp.Regexp) history.BaselineSource {
	if only == nil {
		return src
	}
	return suiteFilteredSource{src: src, only: only}
}

// Resets passes the source's re-baseline points through (history.ResetSource).
func (s suiteFilteredSource) Resets(ctx context.Context) ([]model.Reset, error) {
	if rs, ok := s.src.(history.ResetSource); ok {
		return rs.Resets(ctx)
	}
	return nil, nil
}

func (s suiteFilteredSource) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	b, err := s.src.Baseline(ctx, q)
	if err != nil || b == nil {
		return b, err
	}
	for i, r := range b.Runs {
		kept := *r
		kept.Benchmarks, kept.Summaries = nil, nil
		for _, bm := range r.Benchmarks {
			if s.only.MatchString(bm.Suite) {
				kept.Benchmarks = append(kept.Benchmarks, bm)
			}
		}
		for i, bm := range r.Summaries {
			if s.only.MatchString(r.SummaryKey(i).Suite) {
				kept.Summaries = append(kept.Summaries, bm)
			}
		}
		b.Runs[i] = &kept
	}
	return b, nil
}
