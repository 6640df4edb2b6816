package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/perfgate/perfgate/tracker/model"
)

// jsonSpec is the self-describing form of json-samples.
type jsonSpec struct {
	Unit       string                     `json:"unit"`
	Better     string                     `json:"better"`
	Benchmarks map[string]json.RawMessage `json:"benchmarks"`
}

type jsonSpecBench struct {
	Samples     []float64          `json:"samples"`
	Unit        string             `json:"unit"`
	Better      string             `json:"better"`
	Params      map[string]string  `json:"params"`
	Metrics     map[string]float64 `json:"metrics"`
	SummaryOnly bool               `json:"summary_only"`
}

// ParseJSONSamples parses the json-samples format, either a plain map
//
//	{"matmul/4096": [1.92, 1.95, 1.90], "softmax/1M": [0.21, 0.22]}
//
// whose unit and direction come from Options (--unit, --better), or the
// self-describing form
//
//	{"unit": "ms", "better": "lower",
//	 "benchmarks": {"matmul/4096": [1.92, 1.95],
//	                "tflops": {"samples": [512, 515], "unit": "TFLOP/s", "better": "higher",
//	                           "params": {"n": "4096"}, "summary_only": false}}}
//
// where a benchmark's own unit/better override the file's, which override
// Options. Better defaults to higher for rates (…/s) and lower otherwise.
// Benchmarks come out sorted by name.
func ParseJSONSamples(name string, data []byte, o Options) ([]model.Benchmark, error) {
	var probe map[string]json.RawMessage
	if err := decodeJSON(name, data, &probe); err != nil {
		return nil, err
	}
	spec := jsonSpec{Benchmarks: probe}
	if raw, ok := probe["benchmarks"]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		spec = jsonSpec{}
		if err := decodeJSON(name, data, &spec); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(spec.Benchmarks))
	for k := range spec.Benchmarks {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]model.Benchmark, 0, len(names))
	for _, n := range names {
		b, err := jsonSampleBench(name, n, spec.Benchmarks[n], first(spec.Unit, o.Unit), first(spec.Better, string(o.Better)), o.suite(JSONSamples))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func jsonSampleBench(file, name string, raw json.RawMessage, unit, better, suite string) (model.Benchmark, error) {
	path := fmt.Sprintf("$[%q]", name)
	var sb jsonSpecBench
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		if err := json.Unmarshal(raw, &sb.Samples); err != nil {
			return model.Benchmark{}, bad(file, path, "must be an array of numbers")
		}
	} else if err := json.Unmarshal(raw, &sb); err != nil {
		return model.Benchmark{}, bad(file, path, "must be an array of numbers or {\"samples\": [...], ...}: %v", err)
	}
	b := model.Benchmark{Suite: suite, Name: name, Unit: first(sb.Unit, unit), Samples: sb.Samples, Params: sb.Params, Metrics: sb.Metrics, SummaryOnly: sb.SummaryOnly}
	if name == "" {
		return b, bad(file, path, "a benchmark name must not be empty")
	}
	if b.Unit == "" {
		return b, bad(file, path, "no unit: give --unit, or write {\"unit\": ..., \"benchmarks\": {...}}")
	}
	b.Better = betterForUnit(b.Unit)
	if bs := first(sb.Better, better); bs != "" {
		var ok bool
		if b.Better, ok = model.ParseBetter(bs); !ok {
			return b, bad(file, path, "better: %q is not lower or higher", bs)
		}
	}
	if len(b.Samples) == 0 {
		return b, bad(file, path, "no samples")
	}
	for i, v := range b.Samples {
		if err := checkSample(file, fmt.Sprintf("%s[%d]", path, i), b.Unit, v); err != nil {
			return b, err
		}
	}
	return b, nil
}
