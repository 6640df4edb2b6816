package trend

import (
	"math"

	"github.com/perfgate/perfgate/tracker/changepoint"
	"github.com/perfgate/perfgate/tracker/model"
)

// MaxPoints is how many of a series' latest points step detection reads:
// it costs O(n²) time and memory (tracker/changepoint), and a step older
// than the latest thousand runs is history, not news.
const MaxPoints = 1000

// Options tune step detection.
type Options struct {
	// Threshold is the smallest change of the median that counts, as a
	// fraction (0.05 = 5%), on the same scale as the gate's threshold.
	Threshold float64
	// MaxP is the largest t-test p-value of a step (changepoint.Options).
	MaxP float64
}

// DefaultOptions are a 5% move at p < 0.001 (changepoint.DefaultOptions).
func DefaultOptions() Options {
	d := changepoint.DefaultOptions()
	return Options{Threshold: d.MinChange, MaxP: d.MaxP}
}

// A Step is a lasting change of a benchmark's level.
type Step struct {
	Index  int          `json:"index"` // the first point of the new level
	Run    model.RunRef `json:"run"`   // that point's run: the first commit to look at
	Before float64      `json:"before"`
	After  float64      `json:"after"`
	// Change is After/Before − 1 signed so that positive always means
	// worse (slower for lower-is-better, less for higher-is-better).
	Change float64 `json:"change"`
	Kind   string  `json:"kind"` // "regression" or "improvement"
	// P is the t-test p-value of the step.
	P float64 `json:"p"`
}

// Steps finds the change points of a series' medians with E-divisive
// means and Otava's t-test (tracker/changepoint): Before and After are the
// medians of the runs between the step and its neighbouring steps (or the
// ends). Only the latest MaxPoints points are read.
func Steps(se model.TrendSeries, o Options) []Step {
	pts := se.Points
	off := max(0, len(pts)-MaxPoints)
	pts = pts[off:]
	x := make([]float64, len(pts))
	for i, p := range pts {
		x[i] = p.Median
	}
	var steps []Step
	for _, c := range changepoint.Detect(x, changepoint.Options{MaxP: o.MaxP, MinChange: o.Threshold}) {
		change := c.After/c.Before - 1
		if se.Better == model.Higher {
			change = c.Before/c.After - 1
		}
		if math.IsNaN(change) || math.IsInf(change, 0) {
			continue
		}
		kind := "regression"
		if change < 0 {
			kind = "improvement"
		}
		steps = append(steps, Step{Index: off + c.Index, Run: pts[c.Index].Run, Before: c.Before, After: c.After,
			Change: change, Kind: kind, P: c.P})
	}
	return steps
}
