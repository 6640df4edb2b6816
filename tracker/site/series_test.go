package site

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestBuildSeriesOfAMetricChange checks that a benchmark whose metric
// changed (ns, then cpu-ns/op: two model.TrendSeries) gets one card per
// series, each titled with its unit and dates, where both read the same
// name (issue 27), and that a benchmark of one series keeps its name.
func TestBuildSeriesOfAMetricChange(t *testing.T) {
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	pts := func(from, n int) []model.TrendPoint {
		var out []model.TrendPoint
		for r := from; r < from+n; r++ {
			out = append(out, model.TrendPoint{Median: 100, N: 10, Run: model.RunRef{ID: string(rune('a' + r)), Testbed: "gpu-1", StartedAt: at.Add(time.Duration(r) * 24 * time.Hour)}})
		}
		return out
	}
	in := []model.TrendSeries{
		{Suite: "go", Name: "BenchmarkParse", Unit: "cpu-ns/op", Better: model.Lower, Points: pts(3, 2)},
		{Suite: "go", Name: "BenchmarkParse", Unit: "ns", Better: model.Lower, Points: pts(0, 3)},
		{Suite: "go", Name: "BenchmarkScan", Unit: "ns", Better: model.Lower, Points: pts(0, 5)},
	}
	files, err := Build(in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var doc suiteDoc
	if err := json.Unmarshal(files["data/"+Slug("go")+".json"], &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range doc.Series {
		names = append(names, s.Name)
	}
	want := "BenchmarkParse · cpu-ns/op series since 2026-11-23|BenchmarkParse · ns series 2026-11-20 to 2026-11-22|BenchmarkScan"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("cards\n got %s\nwant %s", got, want)
	}
}
