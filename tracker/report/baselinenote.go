package report

import (
	"fmt"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// BaselineNote says why c judged nothing for want of a baseline, or "":
// no baseline run of branch on testbed at all (record some first), or
// only runs passed over as incomparable. Baseline runs came from branch on
// testbed ("" is shown as "(none)").
func BaselineNote(c *compare.Comparison, branch, testbed string) string {
	if testbed == "" {
		testbed = "(none)"
	}
	switch {
	case len(c.Baseline) == 0 && len(c.Incomparable) == 0:
		return fmt.Sprintf("no baseline yet: the history holds no %s run on testbed %s, so every benchmark is insufficient; record %s runs first ('perfgate record FILE', or 'perfgate check %s' on %s)", branch, testbed, branch, model.Flag("record"), branch)
	case len(c.Baseline) == 0:
		return fmt.Sprintf("no comparable baseline: %d %s run(s) passed over (%s); nothing was judged.",
			len(c.Incomparable), branch, c.Incomparable[0].Reason)
	}
	return ""
}
