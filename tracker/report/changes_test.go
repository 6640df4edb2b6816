package report

import (
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func TestChangesMarkdown(t *testing.T) {
	at := time.Date(2026, 11, 21, 15, 11, 0, 0, time.UTC)
	cs := []trend.Change{
		{Suite: "elementwise", Name: "add/dtype=fp16/n=1M", Unit: "us", Better: model.Lower, Step: trend.Step{
			Index: 4, Before: 6.72, After: 6.05, Change: -0.0997, Kind: "improvement", P: 2e-6,
			Run: model.RunRef{ID: "r5", Commit: "a11ce50000000000000000000000000000000000", StartedAt: at}}},
		{Suite: "elementwise", Name: "relu|<b>@you #1", Unit: "us", Better: model.Lower, Step: trend.Step{
			Index: 3, Before: 9.15, After: 10.2, Change: 0.115, Kind: "regression", P: 3.1e-9,
			Run: model.RunRef{ID: "r4", Commit: "not a sha](javascript:x)", StartedAt: at}}},
	}
	golden.Check(t, "changes.md", ChangesMarkdown(cs, "main", "https://github.com/perfgate/perfgate"))
	if got := ChangesMarkdown(nil, "main", ""); got != "" {
		t.Errorf("no changes: %q, want empty", got)
	}
}
