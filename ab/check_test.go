package ab

import (
	"fmt"
	"testing"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestOptionsCheck: each flag perfgate ab cannot run with is bad input
// naming it; the bounds of --rounds pass.
func TestOptionsCheck(t *testing.T) {
	ok := Options{Base: "main", Order: OrderABBA}
	for _, tc := range []struct {
		o      Options
		rounds int
		want   string // "": no error
	}{
		{ok, 1, ""},
		{ok, runner.MaxRounds, ""},
		{Options{Base: "main", Order: OrderABAB}, 5, ""},
		{Options{Order: OrderABBA}, 5, "--base: required (a git ref such as main or origin/main)"},
		{ok, 0, fmt.Sprintf("--rounds: must be from 1 to %d, got 0", runner.MaxRounds)},
		{ok, runner.MaxRounds + 1, fmt.Sprintf("--rounds: must be from 1 to %d, got %d", runner.MaxRounds, runner.MaxRounds+1)},
		{Options{Base: "main", Order: "aabb"}, 5, `--order: must be abba or abab, got "aabb"`},
	} {
		err := tc.o.Check(tc.rounds)
		if tc.want == "" {
			if err != nil {
				t.Errorf("Check(%+v, %d) = %v", tc.o, tc.rounds, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want || !model.IsInputError(err) {
			t.Errorf("Check(%+v, %d) = %v, want input error %q", tc.o, tc.rounds, err, tc.want)
		}
	}
}
