package trend

import (
	"context"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// suiteSource has one series, gotest/BenchmarkX.
type suiteSource struct{ asked []model.TrendQuery }

func (s *suiteSource) Trend(_ context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	s.asked = append(s.asked, q)
	if (q.Suite == "" || q.Suite == "gotest") && q.Pattern == "BenchmarkX" {
		return []model.TrendSeries{{Suite: "gotest", Name: "BenchmarkX"}}, nil
	}
	return nil, nil
}

// TestReadSuiteSlashName checks that a name spelled as the tables print it,
// suite/name, is found (issue 11, defect 5).
func TestReadSuiteSlashName(t *testing.T) {
	tests := []struct {
		q     model.TrendQuery
		found bool
		asks  int
	}{
		{model.TrendQuery{Pattern: "BenchmarkX"}, true, 1},
		{model.TrendQuery{Pattern: "gotest/BenchmarkX"}, true, 2},
		{model.TrendQuery{Pattern: "go*/BenchmarkX"}, false, 1}, // a glob is not a suite
		{model.TrendQuery{Suite: "gotest", Pattern: "gotest/BenchmarkX"}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.q.Suite+"|"+tt.q.Pattern, func(t *testing.T) {
			src := &suiteSource{}
			series, err := Read(context.Background(), src, tt.q)
			if err != nil || (len(series) == 1) != tt.found || len(src.asked) != tt.asks {
				t.Errorf("%d series, %v, %d queries; want found %v in %d", len(series), err, len(src.asked), tt.found, tt.asks)
			}
		})
	}
}
