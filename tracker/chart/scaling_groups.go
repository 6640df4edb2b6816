package chart

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// A scalingSeries is one line of a per-run chart: the benchmarks of a suite
// that differ only in their size parameter, in one mode.
type scalingSeries struct {
	Key    string    // the name without the size parameter
	X      []float64 // sizes, ascending
	Median []float64 // µs
	Speed  []float64 // speedup over the in-run reference (NaN: none)
	Ref    string    // the reference's op
}

// A scalingGroup is a suite's series in one mode, and the size parameter.
type scalingGroup struct {
	Suite, Mode, Param string
	Series             []scalingSeries
}

// sizeValue reads a size parameter: a number, or one with the binary
// suffix perfgate's names use (4K, 16M, 1G).
func sizeValue(s string) (float64, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, false
	}
	return v * mult, true
}

// toMicros converts a time in unit to µs; false for a unit that is not a time.
func toMicros(v float64, unit string) (float64, bool) {
	f, ok := map[string]float64{"ns": 1e-3, "us": 1, "µs": 1, "ms": 1e3, "s": 1e6}[unit]
	return v * f, ok
}

// params returns a benchmark's parameters: its params, else the k=v
// segments of its name.
func params(b model.Benchmark) map[string]string {
	if len(b.Params) > 0 {
		return b.Params
	}
	m := map[string]string{}
	for _, seg := range strings.Split(b.Name, "/") {
		if k, v, ok := strings.Cut(seg, "="); ok {
			m[k] = v
		}
	}
	return m
}

// sizeParam picks the size parameter of a suite's benchmarks: n when it is
// numeric everywhere, else the numeric parameter with the most distinct
// values; "" when none has two.
func sizeParam(bs []model.Benchmark) string {
	distinct := map[string]map[float64]bool{}
	bad := map[string]bool{"mode": true}
	for _, b := range bs {
		for k, v := range params(b) {
			x, ok := sizeValue(v)
			if !ok {
				bad[k] = true
				continue
			}
			if distinct[k] == nil {
				distinct[k] = map[float64]bool{}
			}
			distinct[k][x] = true
		}
	}
	best := ""
	for _, k := range slices.Sorted(maps.Keys(distinct)) {
		if bad[k] || len(distinct[k]) < 2 {
			continue
		}
		if k == "n" {
			return k
		}
		if best == "" || len(distinct[k]) > len(distinct[best]) {
			best = k
		}
	}
	return best
}

// scalingGroups groups the benchmarks of each suite by mode and series.
func scalingGroups(bs []model.Benchmark) []scalingGroup {
	var suites []string
	bySuite := map[string][]model.Benchmark{}
	for _, b := range bs {
		if b.Error != "" || len(b.Samples) == 0 {
			continue
		}
		if _, ok := bySuite[b.Suite]; !ok {
			suites = append(suites, b.Suite)
		}
		bySuite[b.Suite] = append(bySuite[b.Suite], b)
	}
	var out []scalingGroup
	for _, suite := range suites {
		param := sizeParam(bySuite[suite])
		if param == "" {
			continue
		}
		groups := map[string]*scalingGroup{}
		var modes []string
		for _, b := range bySuite[suite] {
			p := params(b)
			x, ok := sizeValue(p[param])
			med, isTime := toMicros(median(b), b.Unit)
			if !ok || !isTime {
				continue
			}
			mode := p["mode"]
			g := groups[mode]
			if g == nil {
				g = &scalingGroup{Suite: suite, Mode: cmpOr(mode, "all"), Param: param}
				groups[mode], modes = g, append(modes, mode)
			}
			g.add(seriesKey(b.Name, param), x, med, b.Metrics)
		}
		for _, m := range modes {
			g := groups[m]
			for i := range g.Series {
				g.Series[i].sort()
			}
			out = append(out, *g)
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// seriesKey is a benchmark's name without its size and mode segments.
func seriesKey(name, param string) string {
	var keep []string
	for _, seg := range strings.Split(name, "/") {
		if k, _, ok := strings.Cut(seg, "="); ok && (k == param || k == "mode") {
			continue
		}
		keep = append(keep, seg)
	}
	return strings.Join(keep, "/")
}

func median(b model.Benchmark) float64 {
	if v, ok := b.Metrics["median_us"]; ok && b.Unit == "us" {
		return v
	}
	s := slices.Sorted(slices.Values(b.Samples))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func (g *scalingGroup) add(key string, x, med float64, metrics map[string]float64) {
	i := slices.IndexFunc(g.Series, func(s scalingSeries) bool { return s.Key == key })
	if i < 0 {
		g.Series = append(g.Series, scalingSeries{Key: key})
		i = len(g.Series) - 1
	}
	s := &g.Series[i]
	speed := math.NaN()
	var refs []string
	for k, v := range metrics {
		if ref, ok := strings.CutPrefix(k, "speedup_vs_"); ok && v > 0 && !math.IsInf(v, 0) {
			refs = append(refs, ref)
		}
	}
	if len(refs) > 0 {
		slices.Sort(refs)
		speed, s.Ref = metrics["speedup_vs_"+refs[0]], refs[0]
	}
	s.X, s.Median, s.Speed = append(s.X, x), append(s.Median, med), append(s.Speed, speed)
}

func (s *scalingSeries) sort() {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.X[idx[a]] < s.X[idx[b]] })
	x, m, sp := make([]float64, len(idx)), make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		x[i], m[i], sp[i] = s.X[j], s.Median[j], s.Speed[j]
	}
	s.X, s.Median, s.Speed = x, m, sp
}
