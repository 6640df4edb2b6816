package trend

import (
	"context"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Source answers trend queries; every history store is one.
type Source interface {
	Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error)
}

// Read returns the series of src that q selects. A pattern that matches
// nothing is tried again as the tables print names, suite/name: the part
// before the first slash as the suite (when q names none).
func Read(ctx context.Context, src Source, q model.TrendQuery) ([]model.TrendSeries, error) {
	series, err := src.Trend(ctx, q)
	if err == nil && len(series) == 0 && q.Suite == "" {
		if suite, rest, ok := strings.Cut(q.Pattern, "/"); ok && !strings.ContainsAny(suite, "*?[\\") {
			q.Suite, q.Pattern = suite, rest
			series, err = src.Trend(ctx, q)
		}
	}
	return series, err
}
