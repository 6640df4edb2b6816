package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func trendFixture() []trend.Series {
	se := model.TrendSeries{Suite: "elementwise", Name: "add|<b>_x", Unit: "us", Better: model.Lower}
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	wobble := []float64{1, 1.01, 0.99, 1.005, 0.995}
	for i := range 10 {
		m := 100 * wobble[i%5]
		if i >= 6 {
			m *= 1.2
		}
		se.Points = append(se.Points, model.TrendPoint{Median: m, CV: 0.01, N: 50, Run: model.RunRef{
			ID: fmt.Sprintf("run-%02d", i), Commit: fmt.Sprintf("%07x%033d", 0xabc0000+i, 0), StartedAt: at.Add(time.Duration(i) * time.Hour)}})
	}
	return trend.Analyze([]model.TrendSeries{se}, trend.DefaultOptions())
}

func TestTrendExports(t *testing.T) {
	s := trendFixture()
	if len(s[0].Steps) != 1 {
		t.Fatalf("fixture: %d steps, want 1", len(s[0].Steps))
	}
	var m, l bytes.Buffer
	if err := TrendMarkdown(&m, s); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "trend.md", m.String())
	if err := TrendLaTeX(&l, s); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "trend.tex", l.String())
	if !strings.Contains(m.String(), `add\|&lt;b&gt;\_x`) || !strings.Contains(l.String(), `add\textbar{}\textless{}b\textgreater{}\_x`) {
		t.Errorf("hostile name not escaped:\n%s\n%s", m.String(), l.String())
	}
}
