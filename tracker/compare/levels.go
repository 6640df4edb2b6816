package compare

import (
	"math"

	"github.com/perfgate/perfgate/tracker/changepoint"
	"github.com/perfgate/perfgate/tracker/stats"
)

// levels is a benchmark's baseline history cut into levels: the job means
// segmented at their change points (tracker/changepoint), isolated outlier
// jobs left out (stats.OutlierJobs). Indices are job ranks, newest first.
type levels struct {
	segment []int  // each job's segment, 0 the newest; -1: no runs
	drop    []bool // an isolated outlier job, left out of the spread and the baseline
	// last and prev are the jobs of the newest level and of the level
	// before it (prev only when the newest level is a single job, the one
	// case where a PR is judged against both), newest first.
	last, prev []int
}

// levelsOf segments jobs (each its runs' log summaries, newest first).
func levelsOf(jobs [][]float64) levels {
	lv := levels{segment: make([]int, len(jobs)), drop: make([]bool, len(jobs))}
	var ranks []int // jobs with runs, oldest first
	var x []float64
	for j := len(jobs) - 1; j >= 0; j-- {
		lv.segment[j] = -1
		if len(jobs[j]) > 0 {
			ranks = append(ranks, j)
			x = append(x, mean(jobs[j]))
		}
	}
	out := stats.OutlierJobs(x)
	var kept []int // indices into ranks
	var level []float64
	for i := range ranks {
		if out[i] {
			lv.drop[ranks[i]] = true
			continue
		}
		kept = append(kept, i)
		level = append(level, math.Exp(x[i]))
	}
	var cuts []changepoint.Change
	if len(level) >= 3 {
		cuts = changepoint.Detect(level, changepoint.Options{MaxP: 0.001, MinChange: LevelMinChange})
	}
	// Segments numbered from the newest (0) back.
	seg := len(cuts)
	next := 0 // the next cut
	for k, i := range kept {
		if next < len(cuts) && cuts[next].Index == k {
			seg--
			next++
		}
		lv.segment[ranks[i]] = seg
	}
	for _, i := range ranks {
		if lv.drop[i] {
			lv.segment[i] = -1
		}
	}
	for j := range jobs {
		switch lv.segment[j] {
		case 0:
			lv.last = append(lv.last, j)
		case 1:
			lv.prev = append(lv.prev, j)
		}
	}
	if len(lv.last) != 1 {
		lv.prev = nil
	}
	return lv
}

// moved reports whether the newest level is a single job after a change
// point: main moved at its newest job.
func (lv levels) moved() bool { return len(lv.last) == 1 && len(lv.prev) > 0 }

// pick returns the jobs of all that idx names (newest first), at most k of
// them (k = 0: all).
func pick(all [][]float64, idx []int, k int) [][]float64 {
	if k > 0 && len(idx) > k {
		idx = idx[:k]
	}
	out := make([][]float64, 0, len(idx))
	for _, j := range idx {
		out = append(out, all[j])
	}
	return out
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// LevelMinChange is the smallest move of main's level that cuts its
// history into levels (changepoint.Options.MinChange; the change must be
// significant at p < 0.001 too): Hunter's 5%. A slower drift is left to
// the successive differences (stats.EstimateSegmented), which it barely
// inflates.
const LevelMinChange = 0.05
