package report

import (
	"math"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestMarkdownSkipped renders a comparison where kernels unchanged since
// the baseline were skipped: the count in the verdict line, the list and
// the reason collapsed (testdata/skipped.md).
func TestMarkdownSkipped(t *testing.T) {
	mk := func(id string, skip bool) *model.Results {
		r := &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Commit: "0123456789abcdef0123456789abcdef01234567", Branch: "main",
			Testbed: "gpu", StartedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
		for i, n := range []string{"add/n=1M", "gelu/n=1M", "relu/n=1M"} {
			b := model.Benchmark{Suite: "elementwise", Name: n, Unit: "us", Better: model.Lower}
			for j := range 20 {
				b.Samples = append(b.Samples, 100*float64(i+1)+math.Sin(float64(j)))
			}
			if skip && i > 0 {
				why := "kernel unchanged since the baseline (PTX sha256 9f2c0d1e2a3b…)"
				b.Samples, b.Error, b.Info = []float64{}, "skipped: "+why, map[string]string{model.InfoSkipped: why}
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	c, err := compare.Compare([]*model.Results{mk("base", false)}, []*model.Results{mk("cand", true)}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "skipped.md", Markdown(c, Options{Title: "perfgate"}))
}
