package confirm

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// DefaultRounds is how many fresh processes re-run the regressed
// benchmarks by default.
const DefaultRounds = 3

// An Outcome is what the re-run showed for one regressed benchmark.
type Outcome struct {
	// First is the benchmark's result in the first check: a regression.
	First compare.Result
	// Rerun is the re-run rounds alone against the baseline; its Verdict is
	// empty when the benchmark was not re-run.
	Rerun compare.Result
	// Combined is the first rounds and the re-run rounds together against
	// the baseline: what the check now decides on.
	Combined compare.Result
	// Held reports whether the regression holds on the combined evidence
	// (or could not be re-run, and stands).
	Held bool
	// Skipped says why the benchmark was not re-run ("" when it was).
	Skipped string
}

// A Confirmation records a re-run: how many rounds ran, which runs they
// were, and the outcome per regressed benchmark.
type Confirmation struct {
	Rounds   int
	Runs     []model.RunRef // the re-run rounds (candidate side)
	Outcomes []Outcome      // in the first comparison's order
	// Failed says why the re-run as a whole failed ("" when it ran); every
	// regression then stands.
	Failed string
}

// Held counts the regressions that held.
func (c *Confirmation) Held() int {
	n := 0
	for _, o := range c.Outcomes {
		if o.Held {
			n++
		}
	}
	return n
}

// Targets returns the benchmarks to re-run: the regressions of c, in its
// order.
func Targets(c *compare.Comparison) []model.Key {
	var keys []model.Key
	for i := range c.Results {
		if c.Results[i].Verdict == compare.Regression {
			keys = append(keys, c.Results[i].Key())
		}
	}
	return keys
}

// Apply re-judges the regressions of first. rerun compares the re-run
// rounds alone with the baseline, combined the first rounds and the re-run
// rounds together with the same baseline. A regression holds when its
// combined verdict is still a regression, when the re-run alone is one (it
// reproduced the regression: pooling the rounds may only strengthen that),
// or when it was not re-run (skipped names those, with the reason). A
// regression takes its combined result (the most evidence there is) unless
// only the re-run alone held it, when it keeps its first; a regression
// that does not hold says so in its reason. Every other benchmark keeps its first
// result. rounds is how many re-run rounds ran.
func Apply(first, rerun, combined *compare.Comparison, rounds int, skipped map[model.Key]string) (*compare.Comparison, *Confirmation) {
	final := *first
	final.Results = slices.Clone(first.Results)
	conf := &Confirmation{Rounds: rounds}
	if rerun != nil {
		conf.Runs = rerun.CandidateRuns
	}
	if combined != nil {
		final.CandidateRuns = combined.CandidateRuns
	}
	for i := range final.Results {
		r := &final.Results[i]
		if r.Verdict != compare.Regression {
			continue
		}
		o := Outcome{First: *r, Held: true}
		c, okC := find(combined, r.Key())
		rr, okR := find(rerun, r.Key())
		switch why, skip := skipped[r.Key()]; {
		case skip:
			o.Skipped = why
		case !okC || !okR || rr.Verdict == compare.Error:
			o.Skipped = "the re-run did not produce it"
			if okR && rr.Reason != "" {
				o.Skipped += ": " + rr.Reason
			}
		default:
			o.Rerun, o.Combined = rr, c
			switch {
			case c.Verdict == compare.Regression:
				o.Held = true
				*r = c
			case rr.Verdict == compare.Regression:
				// The re-run reproduced it on its own: more evidence cannot
				// undo that, whatever the pooled rounds say.
				o.Held = true
				r.Reason = join(fmt.Sprintf("held: %s in the first rounds, %s in %d re-run rounds, each a regression on its own", pct(o.First.Change), pct(rr.Change), rounds), r.Reason)
			default:
				o.Held = false
				*r = c
				r.Reason = join(fmt.Sprintf("not confirmed: %s in the first rounds, %s in %d re-run rounds", pct(o.First.Change), pct(rr.Change), rounds), c.Reason)
			}
		}
		conf.Outcomes = append(conf.Outcomes, o)
	}
	final.Summary = compare.Summarize(final.Results)
	return &final, conf
}

// Failed returns the confirmation of a re-run that failed as a whole: every
// regression of first stands, unchanged.
func Failed(first *compare.Comparison, rounds int, why string) *Confirmation {
	conf := &Confirmation{Rounds: rounds, Failed: why}
	for i := range first.Results {
		if r := first.Results[i]; r.Verdict == compare.Regression {
			conf.Outcomes = append(conf.Outcomes, Outcome{First: r, Held: true, Skipped: "the re-run failed"})
		}
	}
	return conf
}

func find(c *compare.Comparison, k model.Key) (compare.Result, bool) {
	if c == nil {
		return compare.Result{}, false
	}
	for i := range c.Results {
		if c.Results[i].Key() == k {
			return c.Results[i], true
		}
	}
	return compare.Result{}, false
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

// pct formats a change as a signed percentage ("+12.1%"), "—" when unknown.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}
