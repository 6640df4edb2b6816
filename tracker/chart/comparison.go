package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxBars is the most benchmarks a comparison chart draws: those with the
// largest changes.
const MaxBars = 60

// A Bar is one benchmark of a comparison chart. Change, Low and High are
// fractions, positive is worse (compare.Result's convention).
type Bar struct {
	Label             string
	Change, Low, High float64
	Verdict           string // compare.Verdict: "regression", "improvement", …
}

var unchangedColor = color.RGBA{R: 0x57, G: 0x60, B: 0x6a, A: 0xff}

// Comparison draws the change of each benchmark with its confidence
// interval as a horizontal error bar, sorted so the worst is at the top,
// coloured by verdict, with the threshold ±threshold dashed. Bars without
// an estimate (NaN) are left out; of more than MaxBars, the largest
// changes are kept. It also returns a height that fits the bars.
func Comparison(bars []Bar, threshold float64, title string) (*plot.Plot, vg.Length, error) {
	bars = slices.DeleteFunc(slices.Clone(bars), func(b Bar) bool { return math.IsNaN(b.Change) })
	if len(bars) > MaxBars {
		slices.SortStableFunc(bars, func(a, b Bar) int { return cmp.Compare(math.Abs(b.Change), math.Abs(a.Change)) })
		bars = bars[:MaxBars]
	}
	slices.SortStableFunc(bars, func(a, b Bar) int { return cmp.Compare(a.Change, b.Change) })
	p := plot.New()
	p.Title.Text = text(title)
	p.X.Label.Text = "change (%, positive is worse) with its confidence interval"
	var ticks plot.ConstantTicks
	xmin, xmax := -100*threshold, 100*threshold
	for i, b := range bars {
		lo, hi := finiteOr(b.Low, b.Change), finiteOr(b.High, b.Change)
		pts := errPoints{XYs: plotter.XYs{{X: 100 * b.Change, Y: float64(i)}},
			XErrors: plotter.XErrors{{Low: 100 * (b.Change - lo), High: 100 * (hi - b.Change)}}}
		eb, err := plotter.NewXErrorBars(pts)
		if err != nil {
			return nil, 0, fmt.Errorf("chart: %s: %w", b.Label, err)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, 0, fmt.Errorf("chart: %s: %w", b.Label, err)
		}
		c := verdictColor(b.Verdict)
		eb.Color, sc.Color = c, c
		eb.Width = vg.Points(1.5)
		sc.Shape, sc.Radius = draw.CircleGlyph{}, vg.Points(3)
		p.Add(eb, sc)
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: text(shorten(b.Label, 48))})
		xmin, xmax = math.Min(xmin, 100*lo), math.Max(xmax, 100*hi)
	}
	for _, x := range []float64{-100 * threshold, 0, 100 * threshold} {
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: float64(len(bars)) - 0.5}})
		if err != nil {
			return nil, 0, err
		}
		l.Color = unchangedColor
		if x != 0 {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
	}
	pad := 0.05 * (xmax - xmin)
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	p.Y.Min, p.Y.Max = -0.5, math.Max(float64(len(bars))-0.5, 0.5)
	p.Y.Tick.Marker = ticks
	p.Add(plotter.NewGrid())
	return p, vg.Length(len(bars))*vg.Points(18) + 1.2*vg.Inch, nil
}

// errPoints is one point with its x error, for NewXErrorBars.
type errPoints struct {
	plotter.XYs
	plotter.XErrors
}

func verdictColor(v string) color.Color {
	switch v {
	case "regression":
		return regressionColor
	case "improvement":
		return improvementColor
	case "warn":
		return color.RGBA{R: 0xbf, G: 0x87, B: 0x00, A: 0xff}
	}
	return unchangedColor
}

func finiteOr(v, def float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return def
	}
	return v
}

// shorten cuts a label to n runes, keeping its end (the parameters).
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}
