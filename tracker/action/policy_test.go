package action

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
)

// policyTable is the (verdict mix × inconclusive policy) table of
// docs/action.md, "Steering the gate": each cell is the commit status's
// state, the start of its description and the job's (and perfgate
// check's) exit code, with fail-on-regression true.
var policyTable = []struct {
	mix  string
	sum  compare.Summary
	want [3]string // pass, neutral, fail
}{
	{"5 unchanged", compare.Summary{Unchanged: 5}, [3]string{"success pass 0", "success pass 0", "success pass 0"}},
	{"4 unchanged, 1 improvement", compare.Summary{Unchanged: 4, Improvements: 1}, [3]string{"success pass 0", "success pass 0", "success pass 0"}},
	{"5 skipped (kernels unchanged)", compare.Summary{Skipped: 5}, [3]string{"success pass 0", "success pass 0", "success pass 0"}},
	{"4 unchanged, 1 warn", compare.Summary{Unchanged: 4, Warnings: 1}, [3]string{"success pass 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"4 unchanged, 1 noisy", compare.Summary{Unchanged: 4, Noisy: 1}, [3]string{"success pass 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"4 unchanged, 1 insufficient", compare.Summary{Unchanged: 4, Insufficient: 1}, [3]string{"success pass 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"4 unchanged, 1 not yet gateable", compare.Summary{Unchanged: 4, NotYet: 1}, [3]string{"success pass 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"5 insufficient (no baseline yet)", compare.Summary{Insufficient: 5}, [3]string{"success inconclusive 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"5 errors", compare.Summary{Errors: 5}, [3]string{"success inconclusive 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"4 unchanged, 1 error", compare.Summary{Unchanged: 4, Errors: 1}, [3]string{"success pass 0", "success inconclusive 0", "failure inconclusive 1"}},
	{"1 regression, 3 noisy", compare.Summary{Regressions: 1, Noisy: 3}, [3]string{"failure fail 1", "failure fail 1", "failure fail 1"}},
}

var policies = [3]compare.InconclusivePolicy{compare.InconclusivePass, compare.InconclusiveNeutral, compare.InconclusiveFail}

// cell is what a verdict mix gives under a policy: state, verdict, exit code.
func cell(s compare.Summary, p compare.InconclusivePolicy) string {
	c := judged(s, 0, p)
	st := StatusFor(c, true, "")
	verdict, _, _ := strings.Cut(st.Description, ":")
	exit := 0
	if Fails(c, true) {
		exit = 1
	}
	return fmt.Sprintf("%s %s %d", st.State, verdict, exit)
}

func TestInconclusivePolicyTable(t *testing.T) {
	for _, row := range policyTable {
		for i, p := range policies {
			t.Run(row.mix+"/"+string(p), func(t *testing.T) {
				if got := cell(row.sum, p); got != row.want[i] {
					t.Errorf("got %q, want %q", got, row.want[i])
				}
				if v := VerdictOf(judged(row.sum, 0, p)); string(v) != strings.Fields(row.want[i])[1] {
					t.Errorf("the verdict output %q disagrees with the status %q", v, row.want[i])
				}
			})
		}
	}
}

// TestInconclusivePolicyDocumented checks that docs/action.md shows the
// table the policies give, row by row.
func TestInconclusivePolicyDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/action.md")
	if err != nil {
		t.Fatal(err)
	}
	md := func(c string) string {
		f := strings.Fields(c)
		return fmt.Sprintf("`%s` %q, exit %s", f[0], f[1]+": …", f[2])
	}
	for _, row := range policyTable {
		var cells []string
		for _, p := range policies {
			cells = append(cells, md(cell(row.sum, p)))
		}
		line := "| " + row.mix + " | " + strings.Join(cells, " | ") + " |"
		if !strings.Contains(string(doc), line) {
			t.Errorf("docs/action.md lacks the row\n%s", line)
		}
	}
}
