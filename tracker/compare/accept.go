package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Accept marks the regressions of c that an acceptance covers as Accepted,
// their Reason naming who accepted them and why (the first acceptance
// that covers each), and counts the verdicts again. An acceptance that
// recorded the benchmark's change when it was given covers it only while
// the change stays within the threshold of that one; beyond it the
// regression stands and its reason says what was accepted. Other verdicts
// stay: an acceptance passes a regression, it does not judge a benchmark
// that could not be judged. It returns how many regressions it accepted.
func Accept(c *Comparison, accs []model.Acceptance) int {
	n := 0
	for i := range c.Results {
		r := &c.Results[i]
		if r.Verdict != Regression {
			continue
		}
		var beyond string
		for _, a := range accs {
			if !a.Covers(r.Key()) {
				continue
			}
			if was, ok := a.Changes[r.Key().String()]; ok && !withinAccepted(r.Change, was, r.Threshold) {
				beyond = fmt.Sprintf("beyond what @%s accepted (%s then, %s now)", a.Who, pct(was), pct(r.Change))
				continue
			}
			r.Verdict, r.Reason = Accepted, AcceptedReason(a)
			n++
			break
		}
		if r.Verdict == Regression && beyond != "" {
			r.Reason = join(r.Reason, beyond)
		}
	}
	if n > 0 {
		c.Summary = summarize(c.Results)
	}
	return n
}

// withinAccepted reports whether a change now is no more than threshold
// worse than the change accepted: (1+now)/(1+was) − 1 ≤ threshold.
func withinAccepted(now, was, threshold float64) bool {
	return (1+now)/(1+was)-1 <= threshold
}

// AcceptedChanges returns the changes of c's regressions (and of those
// accepted already) that glob covers, by "suite/name": what an acceptance
// given now accepts (model.Acceptance.Changes).
func AcceptedChanges(c *Comparison, glob string) map[string]float64 {
	out := map[string]float64{}
	for _, r := range c.Results {
		if (r.Verdict == Regression || r.Verdict == Accepted) && model.MatchGlob(glob, r.Key().String()) && !math.IsNaN(r.Change) {
			out[r.Key().String()] = r.Change
		}
	}
	return out
}

// AcceptedReason is an accepted regression's reason: "accepted by @who
// (glob): why".
func AcceptedReason(a model.Acceptance) string {
	s := fmt.Sprintf("accepted by @%s (%s)", a.Who, a.Glob)
	if r := strings.TrimSpace(a.Reason); r != "" {
		s += ": " + r
	}
	return s
}
