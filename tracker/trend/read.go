package trend

import (
	"context"
	"strings"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// Read returns the series of src that q selects. A pattern that matches
// nothing is tried again as the tables print names, suite/name: the part
// before the first slash as the suite (when q names none).
func Read(ctx context.Context, src history.TrendSource, q model.TrendQuery) ([]model.TrendSeries, error) {
	series, err := src.Trend(ctx, q)
	if err == nil && len(series) == 0 && q.Suite == "" {
		if suite, rest, ok := strings.Cut(q.Pattern, "/"); ok && !strings.ContainsAny(suite, "*?[\\") {
			q.Suite, q.Pattern = suite, rest
			series, err = src.Trend(ctx, q)
		}
	}
	return series, err
}
