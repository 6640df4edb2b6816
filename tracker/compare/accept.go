package compare

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Accept marks the regressions of c that an acceptance covers as Accepted,
// their Reason naming who accepted them and why (the first acceptance
// that covers each), and counts the verdicts again. Other verdicts stay:
// an acceptance passes a regression, it does not judge a benchmark that
// could not be judged. It returns how many regressions it accepted.
func Accept(c *Comparison, accs []model.Acceptance) int {
	n := 0
	for i := range c.Results {
		r := &c.Results[i]
		if r.Verdict != Regression {
			continue
		}
		for _, a := range accs {
			if a.Covers(r.Key()) {
				r.Verdict, r.Reason = Accepted, AcceptedReason(a)
				n++
				break
			}
		}
	}
	if n > 0 {
		c.Summary = summarize(c.Results)
	}
	return n
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
