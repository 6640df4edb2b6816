package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// acceptMarkdown lists the regressions accepted on the pull request: which
// benchmarks (the glob), who, when and why, and how many of this
// comparison's regressions each covers (an acceptance that covers none is
// listed too: its benchmarks no longer regress, or the glob missed).
func acceptMarkdown(c *compare.Comparison, accs []model.Acceptance) string {
	if len(accs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("**Accepted on this pull request** (`/perfgate accept`, by users with write access):\n\n")
	b.WriteString("| benchmarks | by | when | why | regressions it covers |\n|:--|:--|:--|:--|--:|\n")
	for _, a := range accs {
		n := 0
		for i := range c.Results {
			if r := &c.Results[i]; r.Verdict == compare.Accepted && r.Reason == compare.AcceptedReason(a) {
				n++
			}
		}
		why := a.Reason
		if strings.TrimSpace(why) == "" {
			why = "(no reason given)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", mdCode(a.Glob), md("@"+a.Who), a.At.UTC().Format("2006-01-02 15:04Z"), md(why), n)
	}
	return b.String() + "\n"
}
