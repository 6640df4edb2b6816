package compare

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestNewSeries checks that a metric change (a command suite switched from
// ns to cpu-ns/op) starts a new series: the baseline jobs in the old unit
// feed neither the baseline nor the spread, the job in the new unit is the
// baseline, and nothing is an error (issue 27: "incompatible units" on
// every push).
func TestNewSeries(t *testing.T) {
	b := seq(100, 1, 10)
	old := func(id string) *model.Results {
		return results(id, "a", bench("go", "BenchmarkParse", "ns", model.Lower, scale(b, 9)))
	}
	newer := results("n1", "b", bench("go", "BenchmarkParse", "cpu-ns/op", model.Lower, b))
	cand := []*model.Results{results("c1", "c", bench("go", "BenchmarkParse", "cpu-ns/op", model.Lower, scale(b, 1.5)))}
	opt := DefaultOptions()
	opt.BaselineJobs = 3

	c, err := Compare([]*model.Results{newer, old("o1"), old("o2")}, cand, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Results[0]
	if r.Verdict == Error || r.Unit != "cpu-ns/op" || r.NBaseline != 10 || r.BaselineMedian != 104.5 {
		t.Errorf("new series against its one job: %s %q, unit %s, %d baseline samples, median %g; want 10 samples of n1, median 104.5",
			r.Verdict, r.Reason, r.Unit, r.NBaseline, r.BaselineMedian)
	}

	c, err = Compare([]*model.Results{old("o1"), old("o2")}, cand, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := "a new series: no baseline run in cpu-ns/op yet (the earlier runs are in ns, kept for trend)"
	if r := c.Results[0]; r.Verdict != Insufficient || r.Reason != want {
		t.Errorf("first run of a new series: %s %q, want insufficient %q", r.Verdict, r.Reason, want)
	}

	// The candidate's own runs disagreeing is still an error: that is no series.
	two := append(cand, results("c2", "c", bench("go", "BenchmarkParse", "ns", model.Lower, b)))
	if c, err = Compare([]*model.Results{newer}, two, opt); err != nil {
		t.Fatal(err)
	}
	if r := c.Results[0]; r.Verdict != Error {
		t.Errorf("candidate runs in two units: %s %q, want error", r.Verdict, r.Reason)
	}
}
