package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// wobble is a flat level with ±1% noise.
var wobble = []float64{1, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1.007, 0.993, 1.001}

func makeSeries(name string, better model.Better, level float64, steps map[int]float64, n int) model.TrendSeries {
	se := model.TrendSeries{Suite: "elementwise", Name: name, Unit: "us", Better: better}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	f := 1.0
	for i := range n {
		if s, ok := steps[i]; ok {
			f = s
		}
		se.Points = append(se.Points, model.TrendPoint{Median: level * f * wobble[i%len(wobble)], CV: 0.02, N: 200,
			Run: model.RunRef{ID: fmt.Sprintf("run-%02d", i), Commit: fmt.Sprintf("%07x%033d", 0xa11ce00+i, 0), StartedAt: at.Add(time.Duration(i) * time.Hour)}})
	}
	return se
}

func trendFixture(t *testing.T, withStep bool) []trend.Series {
	t.Helper()
	steps := map[int]float64{}
	if withStep {
		steps[12] = 1.15
	}
	return trend.Analyze([]model.TrendSeries{makeSeries("add/dtype=fp32/n=16M", model.Lower, 72.5, steps, 24)}, trend.DefaultOptions())
}

func encode(t *testing.T, p *plot.Plot, format string, h vg.Length) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, p, format, 8*vg.Inch, h); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pixelDiff is the fraction of pixels of a and b whose channels differ by
// more than 48 of 255 (anti-aliasing and font hinting move a few), or 1
// when the sizes differ.
func pixelDiff(a, b image.Image) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	differ, r := 0, a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)) >> 8
			if d > 48 {
				differ++
			}
		}
	}
	return float64(differ) / float64(r.Dx()*r.Dy())
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// tolerance is the fraction of pixels a golden image may differ by.
const tolerance = 0.005

// samePixels is the differ of golden PNGs: at most tolerance of the
// pixels of got and want may differ. It keeps got in a temporary file to
// look at when they differ more.
func samePixels(t *testing.T, name string) func(got, want []byte) string {
	return func(got, want []byte) string {
		gi, err := png.Decode(bytes.NewReader(got))
		if err != nil {
			return fmt.Sprintf("the rendered image: %v", err)
		}
		wi, err := png.Decode(bytes.NewReader(want))
		if err != nil {
			return fmt.Sprintf("the golden image: %v", err)
		}
		d := pixelDiff(gi, wi)
		if d <= tolerance {
			return ""
		}
		out := filepath.Join(t.TempDir(), name)
		os.WriteFile(out, got, 0o644)
		return fmt.Sprintf("%.2f%% of pixels differ (tolerance %.1f%%); got %s", 100*d, 100*tolerance, out)
	}
}

func TestTrendPNG(t *testing.T) {
	p, err := Trend(trendFixture(t, true), "elementwise/add: median per run")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckFunc(t, "trend.png", encode(t, p, "png", 4*vg.Inch), samePixels(t, "trend.png"))
}

// TestGoldenCanFail checks the tolerance is tight enough to see the step
// go missing: the chart without it is far from the golden image.
func TestGoldenCanFail(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "trend.png"))
	if err != nil {
		t.Skip("no golden image yet")
	}
	p, err := Trend(trendFixture(t, false), "elementwise/add: median per run")
	if err != nil {
		t.Fatal(err)
	}
	gi, _ := png.Decode(bytes.NewReader(encode(t, p, "png", 4*vg.Inch)))
	wi, _ := png.Decode(bytes.NewReader(want))
	if d := pixelDiff(gi, wi); d <= tolerance {
		t.Errorf("a chart without the step differs from the golden one by %.3f%% only", 100*d)
	}
}

func TestTrendSeveral(t *testing.T) {
	var ss []model.TrendSeries
	for i, name := range []string{"add/n=1M", "add/n=16M", "add/n=64M"} {
		steps := map[int]float64{}
		if i == 1 {
			steps[3] = 0.85
		}
		ss = append(ss, makeSeries(name, model.Lower, 10*float64(i+1), steps, 16))
	}
	p, err := Trend(trend.Analyze(ss, trend.DefaultOptions()), "elementwise/add/*")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckFunc(t, "trend_several.png", encode(t, p, "png", 4*vg.Inch), samePixels(t, "trend_several.png"))

	many := make([]trend.Series, MaxLines+1)
	var tm *TooManyError
	if _, err := Trend(many, ""); !errors.As(err, &tm) || tm.N != MaxLines+1 {
		t.Errorf("Trend of %d series: %v, want a TooManyError", MaxLines+1, err)
	}
}

func comparisonFixture() []Bar {
	return []Bar{
		{"kernels/gemm/n=4096", 0.247, 0.21, 0.29, "regression"},
		{"kernels/copy/bytes=1GiB", 0.004, -0.01, 0.02, "unchanged"},
		{"kernels/softmax/n=65536", -0.198, -0.23, -0.17, "improvement"},
		{"kernels/layernorm/n=8192", 0.08, 0.01, 0.15, "warn"},
		{"kernels/no-estimate", math.NaN(), math.NaN(), math.NaN(), "insufficient"},
	}
}

func TestComparisonPNG(t *testing.T) {
	p, h, err := Comparison(comparisonFixture(), 0.10, "pr-1 vs main: change per benchmark")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckFunc(t, "comparison.png", encode(t, p, "png", h), samePixels(t, "comparison.png"))
}

func TestSVG(t *testing.T) {
	p, err := Trend(trendFixture(t, true), "trend <&> title")
	if err != nil {
		t.Fatal(err)
	}
	svg := encode(t, p, "svg", 4*vg.Inch)
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
	}
	for _, want := range []string{"<svg", "trend &lt;&amp;&gt; title", "+15.0%", "a11ce0c"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if err := Encode(io.Discard, p, "gif", vg.Inch, vg.Inch); err == nil {
		t.Error("Encode gif: no error")
	}
}

// wellFormed fails unless svg is well-formed XML.
func wellFormed(t *testing.T, what string, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Errorf("%s: the SVG is not well-formed XML: %v", what, err)
			return
		}
	}
}

// TestSVGControlCharacters: control characters, invalid UTF-8 and
// bidirectional controls in names, units, commits and titles make SVGs
// that XML readers accept (issue 28, item 11: a name with a control
// character made a trend and a compare SVG that was not XML).
func TestSVGControlCharacters(t *testing.T) {
	hostile := "a\x01b\x1b[31m\x0b\x7f\xff\u202ez"
	series := trendFixture(t, true)
	series[0].Suite, series[0].Name, series[0].Unit = hostile, hostile, hostile
	for i := range series[0].Points {
		series[0].Points[i].Run.Commit = "\x02" + hostile
	}
	for _, ss := range [][]trend.Series{series, {series[0], trendFixture(t, false)[0]}} {
		p, err := Trend(ss, TrendTitle(hostile, ss))
		if err != nil {
			t.Fatal(err)
		}
		wellFormed(t, fmt.Sprintf("trend of %d series", len(ss)), encode(t, p, "svg", 4*vg.Inch))
	}
	bars := comparisonFixture()
	bars[0].Label = hostile
	p, h, err := Comparison(bars, 0.1, hostile)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, "comparison", encode(t, p, "svg", h))
}
