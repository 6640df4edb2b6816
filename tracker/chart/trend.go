package chart

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// MaxLines is the most series one trend chart draws; more are unreadable.
const MaxLines = 8

// A TooManyError says a trend chart was asked for more series than
// MaxLines.
type TooManyError struct{ N int }

func (e *TooManyError) Error() string {
	return fmt.Sprintf("%d series match; a chart draws at most %d (narrow the benchmark pattern)", e.N, MaxLines)
}

var (
	regressionColor  = color.RGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff}
	improvementColor = color.RGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff}
)

// Trend draws series run by run, oldest left. One series is drawn in its
// unit; several are drawn as the change in % from the median of their
// runs before their first step, so benchmarks of any size share an axis.
// Each run's median has a band of its approximate 95% confidence
// interval, ±1.96·1.2533·CV·median/√n (the large-sample standard error of
// a median of normal samples), and each step is a dashed vertical line
// before its first run, red for a regression and green for an
// improvement, labelled with its change.
func Trend(series []trend.Series, title string) (*plot.Plot, error) {
	if len(series) > MaxLines {
		return nil, &TooManyError{N: len(series)}
	}
	p := plot.New()
	p.Title.Text = text(title)
	p.X.Label.Text = "run (oldest → newest)"
	p.Legend.Top, p.Legend.Left = true, true
	relative := len(series) > 1
	if relative {
		p.Y.Label.Text = "change from the first level (%)"
	} else if len(series) == 1 {
		s := series[0]
		p.Y.Label.Text = text(fmt.Sprintf("median (%s, %s is better)", s.Unit, s.Better))
	}
	n, ymin, ymax := 0, math.Inf(1), math.Inf(-1)
	for i, s := range series {
		n = max(n, len(s.Points))
		lo, hi, err := addSeries(p, s, i, relative)
		if err != nil {
			return nil, err
		}
		ymin, ymax = math.Min(ymin, lo), math.Max(ymax, hi)
	}
	if n > 0 {
		p.X.Tick.Marker = runTicks(series)
		p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	}
	if n > 0 {
		// Room above the data for the legend and the step labels.
		span := math.Max(ymax-ymin, 1e-9*math.Abs(ymax))
		top := ymax + span*(0.08+0.07*float64(len(series)))
		p.Y.Min, p.Y.Max = ymin-0.05*span, top+0.05*span
		ymax = top
	}
	for _, s := range series {
		if err := addSteps(p, s, ymin, ymax); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addSeries adds one series' band, line and legend entry, and returns the
// range of y it covers.
func addSeries(p *plot.Plot, s trend.Series, i int, relative bool) (ymin, ymax float64, err error) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	if len(s.Points) == 0 {
		return ymin, ymax, nil
	}
	ref := reference(s)
	y := func(v float64) float64 {
		if relative {
			return 100 * (v/ref - 1)
		}
		return v
	}
	line, band := make(plotter.XYs, len(s.Points)), make(plotter.XYs, 0, 2*len(s.Points))
	for j, pt := range s.Points {
		line[j] = plotter.XY{X: float64(j), Y: y(pt.Median)}
		band = append(band, plotter.XY{X: float64(j), Y: y(pt.Median - halfCI(pt))})
	}
	for j := len(s.Points) - 1; j >= 0; j-- {
		pt := s.Points[j]
		band = append(band, plotter.XY{X: float64(j), Y: y(pt.Median + halfCI(pt))})
	}
	for _, b := range band {
		ymin, ymax = math.Min(ymin, b.Y), math.Max(ymax, b.Y)
	}
	c := plotutil.Color(i)
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return ymin, ymax, fmt.Errorf("chart: %s/%s: %w", s.Suite, s.Name, err)
	}
	r, g, b, _ := c.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x40}
	poly.LineStyle.Width = 0
	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		return ymin, ymax, fmt.Errorf("chart: %s/%s: %w", s.Suite, s.Name, err)
	}
	l.Color, pts.Color = c, c
	l.Width = vg.Points(1.5)
	pts.Shape, pts.Radius = draw.CircleGlyph{}, vg.Points(2)
	p.Add(poly, l, pts)
	p.Legend.Add(text(s.Suite+"/"+s.Name), l, pts)
	return ymin, ymax, nil
}

// addSteps marks the steps of a series.
// Its lines span ymin to ymax, the range of every series.
func addSteps(p *plot.Plot, s trend.Series, ymin, ymax float64) error {
	if len(s.Steps) == 0 {
		return nil
	}
	var labels plotter.XYLabels
	for _, st := range s.Steps {
		x := float64(st.Index) - 0.5
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
		if err != nil {
			return err
		}
		l.Color = improvementColor
		if st.Kind == "regression" {
			l.Color = regressionColor
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1.2)
		p.Add(l)
		labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: ymin})
		labels.Labels = append(labels.Labels, fmt.Sprintf(" %+.1f%%", 100*st.Change))
	}
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	p.Add(lb)
	return nil
}

// reference is the level a relative chart measures from: the median of
// the medians before the first step (all of them without a step).
func reference(s trend.Series) float64 {
	end := len(s.Points)
	if len(s.Steps) > 0 {
		end = s.Steps[0].Index
	}
	m := make([]float64, 0, end)
	for _, p := range s.Points[:end] {
		m = append(m, p.Median)
	}
	slices.Sort(m)
	if len(m) == 0 {
		return 1
	}
	if len(m)%2 == 1 {
		return m[len(m)/2]
	}
	return (m[len(m)/2-1] + m[len(m)/2]) / 2
}

// halfCI is the half width of the approximate 95% interval of a run's
// median.
func halfCI(p model.TrendPoint) float64 {
	if p.N < 2 || !(p.CV > 0) {
		return 0
	}
	return 1.96 * 1.2533 * p.CV * math.Abs(p.Median) / math.Sqrt(float64(p.N))
}

// runTicks labels at most ten runs, evenly spread, with their short
// commit.
func runTicks(series []trend.Series) plot.ConstantTicks {
	longest := series[0]
	for _, s := range series {
		if len(s.Points) > len(longest.Points) {
			longest = s
		}
	}
	n := len(longest.Points)
	step := max(1, (n+9)/10)
	var ticks plot.ConstantTicks
	for j := 0; j < n; j += step {
		c := longest.Points[j].Run.Commit
		if len(c) > 7 {
			c = c[:7]
		}
		ticks = append(ticks, plot.Tick{Value: float64(j), Label: text(c)})
	}
	return ticks
}
