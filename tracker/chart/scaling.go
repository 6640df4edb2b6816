package chart

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perfgate/perfgate/tracker/model"
)

// ScalingHeight is the height of a per-run scaling chart.
const ScalingHeight = 4 * vg.Inch

// RunCharts draws the per-run charts of the seeds' visualisers for runs:
// for every suite whose benchmarks vary in a numeric size parameter ("n"
// when there is one, else the numeric parameter with the most values), per
// mode, the median time by size (log-log, one line per benchmark with the
// size taken out of its name, at most MaxLines a chart: more go to further
// charts) and, for the benchmarks with an in-run reference, the speedup by
// size with the category thresholds (0.8, 0.5, 0.2) dashed. It returns
// the images in format (png or svg) by file name: run (when several),
// suite, what is drawn, mode and part, in characters safe in any file
// system. A suite without a size parameter gets no chart.
func RunCharts(runs []*model.Results, format string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for i, r := range runs {
		prefix := ""
		if len(runs) > 1 {
			prefix = fmt.Sprintf("run%d-", i+1)
		}
		for _, g := range scalingGroups(r.Benchmarks) {
			for part := 0; part*MaxLines < len(g.Series); part++ {
				lines := g.Series[part*MaxLines : min(len(g.Series), (part+1)*MaxLines)]
				name := fmt.Sprintf("%s%s-time-%s", prefix, safeName(g.Suite), safeName(g.Mode))
				if len(g.Series) > MaxLines {
					name += fmt.Sprintf("-%d", part+1)
				}
				if err := encodeTo(out, name+"."+format, timeChart(g, lines), format); err != nil {
					return nil, err
				}
			}
			var withRef []scalingSeries
			for _, s := range g.Series {
				if s.Ref != "" {
					withRef = append(withRef, s)
				}
			}
			for part := 0; part*MaxLines < len(withRef); part++ {
				lines := withRef[part*MaxLines : min(len(withRef), (part+1)*MaxLines)]
				name := fmt.Sprintf("%s%s-speedup-%s", prefix, safeName(g.Suite), safeName(g.Mode))
				if len(withRef) > MaxLines {
					name += fmt.Sprintf("-%d", part+1)
				}
				if err := encodeTo(out, name+"."+format, speedupChart(g, lines), format); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// encodeTo encodes p (nil: nothing to draw) into out[name]. gonum panics on
// axes it cannot draw; that is an error here, not a crash.
func encodeTo(out map[string][]byte, name string, p *plot.Plot, format string) (err error) {
	if p == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart %s: %v", name, r)
		}
	}()
	var b bytes.Buffer
	if err := Encode(&b, p, format, 8*vg.Inch, ScalingHeight); err != nil {
		return err
	}
	out[name] = b.Bytes()
	return nil
}

// logRange sets a log axis's range to cover vs (the positive ones), a
// factor of 2 either side when they are all one value; false when there is
// no positive value.
func logRange(a *plot.Axis, vs []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return false
	}
	if hi/lo < 1.5 {
		lo, hi = lo/2, hi*2
	}
	a.Min, a.Max = lo, hi
	return true
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// safeName makes user text (a suite name from a results file) a file-name part.
func safeName(s string) string {
	s = strings.Trim(unsafeName.ReplaceAllString(s, "_"), ".")
	if s == "" {
		return "_"
	}
	return s[:min(len(s), 60)]
}

// timeChart draws the median time by size of lines, log-log.
func timeChart(g scalingGroup, lines []scalingSeries) *plot.Plot {
	p := plot.New()
	p.Title.Text = text(fmt.Sprintf("%s (%s): median time by %s", g.Suite, g.Mode, g.Param))
	p.X.Label.Text, p.Y.Label.Text = text(g.Param), "median (µs, log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	var xs, ys []float64
	for i, s := range lines {
		x, y := positive(s.X, s.Median)
		addLine(p, i, s.Key, x, y)
		xs, ys = append(xs, x...), append(ys, y...)
	}
	if !logRange(&p.X, xs) || !logRange(&p.Y, ys) {
		return nil
	}
	p.Y.Max *= 4 // room for the legend
	return p
}

// positive keeps the points with a positive x and y (a log axis cannot show others).
func positive(xs, ys []float64) (px, py []float64) {
	for i := range xs {
		if xs[i] > 0 && ys[i] > 0 {
			px, py = append(px, xs[i]), append(py, ys[i])
		}
	}
	return px, py
}

// speedupChart draws the speedup over the in-run reference by size, with
// the category thresholds dashed.
func speedupChart(g scalingGroup, lines []scalingSeries) *plot.Plot {
	p := plot.New()
	p.Title.Text = text(fmt.Sprintf("%s (%s): speedup over the in-run reference by %s; dashed: 0.8 excellent, 0.5 good, 0.2 fair", g.Suite, g.Mode, g.Param))
	p.X.Label.Text, p.Y.Label.Text = text(g.Param), "speedup"
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	var all []float64
	top, bottom := 1.0, 1.0
	for i, s := range lines {
		var xs, ys []float64
		for j, v := range s.Speed {
			if !math.IsNaN(v) && s.X[j] > 0 {
				xs, ys = append(xs, s.X[j]), append(ys, v)
				top, bottom = math.Max(top, v), math.Min(bottom, v)
			}
		}
		addLine(p, i, s.Key+" vs "+s.Ref, xs, ys)
		all = append(all, xs...)
	}
	if !logRange(&p.X, all) {
		return nil
	}
	lo, hi := p.X.Min, p.X.Max
	for _, y := range []float64{0.8, 0.5, 0.2} {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: y}, {X: hi, Y: y}})
		if err != nil {
			continue
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Color = plotutil.Color(7)
		p.Add(l)
	}
	p.Y.Min, p.Y.Max = 0, top*(1.15+0.1*float64(len(lines))) // room for the legend
	// Speedups of 1× and of 1000× in one chart: a log scale.
	if top/math.Max(bottom, 1e-9) > 20 {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = math.Min(0.1, bottom/2), top*math.Pow(10, 0.5+0.25*float64(len(lines)))
		p.Y.Label.Text = "speedup (log scale)"
	}
	return p
}

// addLine adds one series with points and a legend entry.
func addLine(p *plot.Plot, i int, name string, xs, ys []float64) {
	xy := make(plotter.XYs, len(xs))
	for j := range xs {
		xy[j] = plotter.XY{X: xs[j], Y: ys[j]}
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return // no finite point: nothing to draw
	}
	c := plotutil.Color(i)
	l.Color, pts.Color = c, c
	l.Width = vg.Points(1.5)
	pts.Shape, pts.Radius = draw.CircleGlyph{}, vg.Points(2)
	p.Add(l, pts)
	p.Legend.Add(text(shorten(name, 60)), l, pts)
}
