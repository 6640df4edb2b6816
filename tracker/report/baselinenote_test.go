package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestBaselineNote(t *testing.T) {
	tests := []struct {
		name string
		c    *compare.Comparison
		want string
	}{
		{"no baseline run", &compare.Comparison{}, "no baseline yet: the history holds no main run on testbed (none)"},
		{"only incomparable runs", &compare.Comparison{Incomparable: []model.Incomparable{{Reason: "another GPU"}}}, "no comparable baseline: 1 main run(s) passed over (another GPU)"},
		{"a baseline", &compare.Comparison{Baseline: []model.RunRef{{ID: "b"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BaselineNote(tt.c, "main", "")
			if tt.want == "" && got != "" || !strings.HasPrefix(got, tt.want) {
				t.Errorf("BaselineNote = %q, want prefix %q", got, tt.want)
			}
		})
	}
}
