package ingest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// comprehensiveParams are the numeric fields of a comprehensive record that
// identify a configuration rather than measure it.
var comprehensiveParams = []string{"batch_size", "sequence_length", "tensor_dimension", "num_heads", "head_dim", "hidden_size", "num_layers", "world_size"}

// ParseComprehensive parses the comprehensive benchmark's JSON: a list of
// records (or {"results": [...]}) such as
//
//	{"operation": "attention", "implementation": "flash", "batch_size": 8,
//	 "sequence_length": 2048, "tensor_dimension": 64, "time_ms": 1.92, "memory_mb": 310.5}
//
// Records with the same operation, implementation and parameters (the
// fields in comprehensiveParams, and every string or boolean field) are
// samples of one benchmark; time_ms is the sample, flagged summary-only
// because the tool writes the mean of its own timed runs; every other
// numeric field becomes a metric (the median over the records). A record
// with an "error" string and no time_ms gives a benchmark with Error set.
// The record shape follows the tool's "Comprehensive Benchmarking Guide"
// (testdata/comprehensive/guide.json holds its documented example).
func ParseComprehensive(name string, data []byte, o Options) ([]model.Benchmark, error) {
	var recs []map[string]any
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		var wrapped struct {
			Results []map[string]any `json:"results"`
		}
		if err := decodeJSON(name, data, &wrapped); err != nil {
			return nil, err
		}
		recs = wrapped.Results
	} else if err := decodeJSON(name, data, &recs); err != nil {
		return nil, err
	}
	g := newGrouper(o.suite(Comprehensive))
	for i, r := range recs {
		if err := comprehensiveRecord(name, fmt.Sprintf("$[%d]", i), r, g); err != nil {
			return nil, err
		}
	}
	return g.finish(), nil
}

func comprehensiveRecord(file, path string, r map[string]any, g *grouper) error {
	op, _ := r["operation"].(string)
	impl, _ := r["implementation"].(string)
	if op == "" || impl == "" {
		return bad(file, path, "a record needs operation and implementation strings")
	}
	params := map[string]string{}
	metrics := map[string]float64{}
	for _, k := range model.SortedKeys(r) { // in order: the first bad field is always the same one
		v := r[k]
		switch x := v.(type) {
		case string:
			if k != "operation" && k != "implementation" && k != "error" {
				params[k] = x
			}
		case bool:
			params[k] = strconv.FormatBool(x)
		case float64:
			if slices.Contains(comprehensiveParams, k) {
				if x < 0 || x != math.Trunc(x) {
					return bad(file, path+"."+k, "%v is not a whole number", x)
				}
				params[k] = strconv.FormatFloat(x, 'f', -1, 64)
			} else if k != "time_ms" {
				metrics[k] = x
			}
		case nil:
			// null: not measured.
		default:
			return bad(file, path+"."+k, "%s is not a parameter, sample or metric: a record holds strings, booleans and numbers (docs/config.md, comprehensive)", jsonKind(v))
		}
	}
	name := op + "/" + impl + paramSuffix(params, comprehensiveParams)
	t, ok := r["time_ms"].(float64)
	if !ok {
		if msg, isErr := r["error"].(string); isErr && strings.TrimSpace(msg) != "" {
			g.fail(name, params, "ms", msg)
			return nil
		}
		return bad(file, path+".time_ms", "missing or not a number")
	}
	if err := checkSample(file, path+".time_ms", "ms", t); err != nil {
		return err
	}
	// time_ms is the tool's mean over its own timed runs (100 by default, its
	// guide says), not a raw sample: flagged so verdicts say so.
	return g.add(name, params, "ms", []float64{t}, true, metrics)
}

// jsonKind names the JSON type of a decoded value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	default:
		return fmt.Sprintf("a %T", v)
	}
}

// paramSuffix renders params as "/k=v/…", the keys in order first, then the rest sorted.
func paramSuffix(params map[string]string, order []string) string {
	var sb strings.Builder
	done := map[string]bool{}
	for _, k := range order {
		if v, ok := params[k]; ok {
			fmt.Fprintf(&sb, "/%s=%s", k, v)
			done[k] = true
		}
	}
	for _, k := range model.SortedKeys(params) {
		if !done[k] {
			fmt.Fprintf(&sb, "/%s=%s", k, params[k])
		}
	}
	return sb.String()
}

// grouper pools records of the same benchmark in first-seen order.
type grouper struct {
	suite   string
	out     []model.Benchmark
	metrics []map[string][]float64
	index   map[string]int
}

func newGrouper(suite string) *grouper { return &grouper{suite: suite, index: map[string]int{}} }

func (g *grouper) get(name string, params map[string]string, unit string) int {
	i, ok := g.index[name]
	if !ok {
		i = len(g.out)
		g.index[name] = i
		g.out = append(g.out, model.Benchmark{Suite: g.suite, Name: name, Params: params, Unit: unit, Better: model.Lower, Samples: []float64{}})
		g.metrics = append(g.metrics, map[string][]float64{})
	}
	return i
}

func (g *grouper) add(name string, params map[string]string, unit string, samples []float64, summary bool, metrics map[string]float64) error {
	i := g.get(name, params, unit)
	b := &g.out[i]
	if b.Unit != unit {
		return fmt.Errorf("unit %s differs from %s in an earlier record of %s", unit, b.Unit, name)
	}
	b.Samples = append(b.Samples, samples...)
	b.SummaryOnly = b.SummaryOnly || summary
	for k, v := range metrics {
		g.metrics[i][k] = append(g.metrics[i][k], v)
	}
	return nil
}

func (g *grouper) fail(name string, params map[string]string, unit, msg string) {
	i := g.get(name, params, unit)
	if g.out[i].Error == "" {
		g.out[i].Error = msg
	}
}

func (g *grouper) finish() []model.Benchmark {
	for i := range g.out {
		b := &g.out[i]
		if len(b.Samples) > 0 {
			b.Error = ""
		}
		for k, vs := range g.metrics[i] {
			if b.Metrics == nil {
				b.Metrics = map[string]float64{}
			}
			b.Metrics[k] = median(vs)
		}
		if len(b.Params) == 0 {
			b.Params = nil
		}
	}
	return g.out
}
