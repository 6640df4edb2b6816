package trend

import (
	"context"
	"math"
	"slices"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// A Series is one benchmark's trend with the steps found in it and its
// run-to-run spread.
type Series struct {
	model.TrendSeries
	Steps []Step `json:"steps"`
	// Spread is how much the benchmark moves between runs: a robust
	// standard deviation of the log medians of successive runs, as a
	// fraction (nil with fewer than three runs; see RunSpread).
	Spread *float64 `json:"run_spread"`
	// Resets are the re-baseline points that cover the benchmark
	// (MarkResets): runs before one feed no baseline, shown all the same.
	Resets []model.Reset `json:"resets,omitempty"`
}

// ReadResets returns src's re-baseline points, none when it keeps none.
func ReadResets(ctx context.Context, src any) ([]model.Reset, error) {
	if rs, ok := src.(history.ResetSource); ok {
		return rs.Resets(ctx)
	}
	return nil, nil
}

// ReadWithResets is Read, and src's re-baseline points (ReadResets).
func ReadWithResets(ctx context.Context, src history.TrendSource, q model.TrendQuery) ([]model.TrendSeries, []model.Reset, error) {
	series, err := Read(ctx, src, q)
	if err != nil {
		return nil, nil, err
	}
	resets, err := ReadResets(ctx, src)
	return series, resets, err
}

// MarkResets gives each series the resets (perfgate baseline reset) of
// repo ("" = any) whose glob matches its benchmark.
func MarkResets(series []Series, resets []model.Reset, repo string) {
	for i := range series {
		key := model.Key{Suite: series[i].Suite, Name: series[i].Name}.String()
		for _, r := range resets {
			if (r.Repo == "" || repo == "" || r.Repo == repo) && model.MatchGlob(r.Glob, key) {
				series[i].Resets = append(series[i].Resets, r)
			}
		}
	}
}

// RunSpread returns a robust run-to-run spread of points: 1.4826 times the
// median absolute difference of successive log medians, over √2. Being
// built on successive differences, a step change moves one difference and
// barely moves the estimate; an outlier run moves two. NaN with fewer than
// three points with a positive median.
func RunSpread(points []model.TrendPoint) float64 {
	var d []float64
	prev := math.NaN()
	for _, p := range points {
		if !(p.Median > 0) {
			continue
		}
		l := math.Log(p.Median)
		if !math.IsNaN(prev) {
			d = append(d, math.Abs(l-prev))
		}
		prev = l
	}
	if len(d) < 2 {
		return math.NaN()
	}
	slices.Sort(d)
	return math.Expm1(1.4826 * stats.Quantile(d, 0.5) / math.Sqrt2)
}

// Analyze finds the steps of every series.
func Analyze(series []model.TrendSeries, o Options) []Series {
	out := make([]Series, len(series))
	for i, se := range series {
		out[i] = Series{TrendSeries: se, Steps: Steps(se, o)}
		if sp := RunSpread(se.Points); !math.IsNaN(sp) {
			out[i].Spread = &sp
		}
		if out[i].Steps == nil {
			out[i].Steps = []Step{}
		}
		if out[i].Points == nil {
			out[i].Points = []model.TrendPoint{}
		}
	}
	return out
}
