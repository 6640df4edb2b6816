package compare

import (
	"math"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestSkippedVerdict: a candidate benchmark not measured on purpose
// (model.InfoSkipped) gets the verdict skipped with its reason, not error
// or insufficient, and counts neither towards the geomean nor as judged.
func TestSkippedVerdict(t *testing.T) {
	mk := func(id string, skip bool) *model.Results {
		r := &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Testbed: "gpu", StartedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
		for _, n := range []string{"add", "gelu"} {
			b := model.Benchmark{Suite: "elementwise", Name: n, Unit: "us", Better: model.Lower}
			for j := range 20 {
				b.Samples = append(b.Samples, 100+math.Sin(float64(j)))
			}
			if skip && n == "add" {
				why := "kernel unchanged since the baseline (PTX sha256 9f2c…)"
				b.Samples, b.Error, b.Info = []float64{}, "skipped: "+why, map[string]string{model.InfoSkipped: why}
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	c, err := Compare([]*model.Results{mk("base", false)}, []*model.Results{mk("cand", true)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	add, gelu := c.Results[0], c.Results[1]
	if add.Verdict != Skipped || add.Reason != "kernel unchanged since the baseline (PTX sha256 9f2c…)" {
		t.Errorf("add: %s (%s), want skipped with the reason", add.Verdict, add.Reason)
	}
	if gelu.Verdict != Unchanged {
		t.Errorf("gelu: %s, want unchanged", gelu.Verdict)
	}
	if s := c.Summary; s.Skipped != 1 || s.Errors != 0 || s.Insufficient != 0 || s.Unchanged != 1 {
		t.Errorf("summary %+v, want 1 skipped, 1 unchanged", s)
	}
}
