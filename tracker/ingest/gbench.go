package ingest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// gbenchFile is the part of Google Benchmark's --benchmark_format=json output
// that perfgate reads.
type gbenchFile struct {
	Context    map[string]any `json:"context"`
	Benchmarks []gbenchRow    `json:"benchmarks"`
}

type gbenchRow struct {
	Name          string  `json:"name"`
	RunName       string  `json:"run_name"`
	RunType       string  `json:"run_type"`
	AggregateName string  `json:"aggregate_name"`
	AggregateUnit string  `json:"aggregate_unit"`
	Threads       int     `json:"threads"`
	Iterations    float64 `json:"iterations"`
	RealTime      float64 `json:"real_time"`
	CPUTime       float64 `json:"cpu_time"`
	TimeUnit      string  `json:"time_unit"`
	ErrorOccurred bool    `json:"error_occurred"`
	ErrorMessage  string  `json:"error_message"`
	extra         map[string]float64
}

// gbenchKnown are the row fields that are not user counters.
var gbenchKnown = map[string]bool{
	"name": true, "run_name": true, "run_type": true, "aggregate_name": true, "aggregate_unit": true,
	"family_index": true, "per_family_instance_index": true, "repetitions": true, "repetition_index": true,
	"threads": true, "iterations": true, "real_time": true, "cpu_time": true, "time_unit": true,
	"error_occurred": true, "error_message": true, "label": true,
}

func (r *gbenchRow) UnmarshalJSON(data []byte) error {
	type plain gbenchRow
	if err := json.Unmarshal(data, (*plain)(r)); err != nil {
		return err
	}
	var all map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for k, v := range all {
		if f, ok := v.(float64); ok && !gbenchKnown[k] {
			if r.extra == nil {
				r.extra = map[string]float64{}
			}
			r.extra[k] = f
		}
	}
	return nil
}

// ParseGBench parses Google Benchmark JSON. Each repetition's "iteration" row
// is one sample of real_time (wall time, or the manual time when the
// benchmark uses UseManualTime) in the row's time_unit; aggregate rows
// (mean, median, stddev, cv, BigO) are never samples. When the output holds
// only aggregates (--benchmark_report_aggregates_only), the median aggregate
// is kept as one summary, flagged SummaryOnly. cpu_time and user counters
// (bytes_per_second, items_per_second, …) become metrics, medians over the
// repetitions. Errored runs (SkipWithError) give a benchmark with Error set.
func ParseGBench(name string, data []byte, o Options) ([]model.Benchmark, error) {
	var f gbenchFile
	if err := decodeJSON(name, data, &f); err != nil {
		return nil, err
	}
	g := &gbenchGroups{index: map[string]int{}}
	for i, r := range f.Benchmarks {
		path := fmt.Sprintf("$.benchmarks[%d]", i)
		if err := g.add(name, path, r); err != nil {
			return nil, err
		}
	}
	out := make([]model.Benchmark, 0, len(g.groups))
	for _, gr := range g.groups {
		out = append(out, gr.benchmark(o.suite(GBench)))
	}
	return out, nil
}

type gbenchGroup struct {
	runName, unit string
	threads       int
	iters         []gbenchRow
	median        *gbenchRow
	errMsg        string
}

type gbenchGroups struct {
	groups []*gbenchGroup
	index  map[string]int
}

func (g *gbenchGroups) add(file, path string, r gbenchRow) error {
	runName := r.RunName
	if runName == "" {
		runName = r.Name
	}
	if runName == "" {
		return bad(file, path+".name", "a benchmark row needs a name")
	}
	unit := r.TimeUnit
	if unit == "" {
		unit = "ns" // Google Benchmark's default
	}
	if !model.IsTimeUnit(unit) {
		return bad(file, path+".time_unit", "%q is not a time unit (ns, us, ms, s)", r.TimeUnit)
	}
	i, ok := g.index[runName]
	if !ok {
		i = len(g.groups)
		g.index[runName] = i
		g.groups = append(g.groups, &gbenchGroup{runName: runName, unit: unit, threads: r.Threads})
	}
	gr := g.groups[i]
	if gr.unit != unit {
		return bad(file, path+".time_unit", "%q differs from %q earlier for %s", unit, gr.unit, runName)
	}
	switch {
	case r.ErrorOccurred:
		gr.errMsg = first(r.ErrorMessage, "the benchmark reported an error")
	case r.RunType == "aggregate":
		if r.AggregateName == "median" {
			gr.median = &r
		}
	case r.RunType == "" || r.RunType == "iteration":
		if err := checkSample(file, path+".real_time", unit, r.RealTime); err != nil {
			return err
		}
		gr.iters = append(gr.iters, r)
	default:
		return bad(file, path+".run_type", "unknown run_type %q (want iteration or aggregate)", r.RunType)
	}
	return nil
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func (gr *gbenchGroup) benchmark(suite string) model.Benchmark {
	b := model.Benchmark{Suite: suite, Name: gr.runName, Unit: gr.unit, Better: model.Lower, Samples: []float64{},
		Params: gbenchParams(gr.runName, gr.threads), Info: map[string]string{"time": "real_time"}}
	rows := gr.iters
	if len(rows) == 0 && gr.median != nil {
		rows = []gbenchRow{*gr.median}
		b.SummaryOnly = true
		b.Info["summary"] = "median aggregate (--benchmark_report_aggregates_only): no per-repetition rows"
	}
	metrics := map[string][]float64{}
	for _, r := range rows {
		b.Samples = append(b.Samples, r.RealTime)
		metrics["cpu_time_"+gr.unit] = append(metrics["cpu_time_"+gr.unit], r.CPUTime)
		for k, v := range r.extra {
			metrics[k] = append(metrics[k], v)
		}
	}
	if len(rows) > 0 {
		b.Metrics = make(map[string]float64, len(metrics))
		for k, vs := range metrics {
			b.Metrics[k] = median(vs)
		}
	}
	if len(b.Samples) == 0 {
		b.Error = first(gr.errMsg, "no iteration rows")
	}
	return b
}

// gbenchParams reads "name:value" parts of a benchmark name, and the thread count.
func gbenchParams(runName string, threads int) map[string]string {
	p := map[string]string{}
	for _, part := range strings.Split(runName, "/")[1:] {
		if k, v, ok := strings.Cut(part, ":"); ok && k != "" {
			p[k] = v
		}
	}
	if threads > 1 {
		p["threads"] = fmt.Sprint(threads)
	}
	if len(p) == 0 {
		return nil
	}
	return p
}
