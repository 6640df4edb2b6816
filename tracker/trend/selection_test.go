package trend

import (
	"errors"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestSelectionQuery(t *testing.T) {
	ok := Selection{Pattern: "add/dtype=fp32", Suite: "elementwise", Branch: " main ", Testbed: "h100", Repo: "o/r", ThresholdPercent: 5, MaxP: 0.001}
	q, opt, err := ok.Query()
	wantQ := model.TrendQuery{Repo: "o/r", Suite: "elementwise", Pattern: "add/dtype=fp32", Branch: "main", Testbed: "h100"}
	if err != nil || q != wantQ || opt != (Options{Threshold: 0.05, MaxP: 0.001}) {
		t.Fatalf("Query() = %+v, %+v, %v; want %+v, {0.05 0.001}", q, opt, err, wantQ)
	}
	for _, tc := range []struct {
		name    string
		edit    func(*Selection)
		setting string
	}{
		{"no pattern", func(s *Selection) { s.Pattern = "" }, "benchmark"},
		{"bad pattern", func(s *Selection) { s.Pattern = "add[" }, "benchmark"},
		{"zero threshold", func(s *Selection) { s.ThresholdPercent = 0 }, "step-threshold"},
		{"huge threshold", func(s *Selection) { s.ThresholdPercent = 1000 }, "step-threshold"},
		{"p of 1", func(s *Selection) { s.MaxP = 1 }, "step-p"},
		{"p of 0", func(s *Selection) { s.MaxP = 0 }, "step-p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ok
			tc.edit(&s)
			_, _, err := s.Query()
			var se *SelectionError
			if !errors.As(err, &se) || se.Setting != tc.setting {
				t.Errorf("Query() error %v, want a SelectionError for %s", err, tc.setting)
			}
		})
	}
}
