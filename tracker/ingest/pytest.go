package ingest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

type pytestFile struct {
	Benchmarks []pytestBench `json:"benchmarks"`
	Version    string        `json:"version"`
}

type pytestBench struct {
	Group     *string                    `json:"group"`
	Name      string                     `json:"name"`
	Fullname  string                     `json:"fullname"`
	Params    map[string]json.RawMessage `json:"params"`
	ExtraInfo map[string]any             `json:"extra_info"`
	Stats     *pytestStats               `json:"stats"`
}

type pytestStats struct {
	Min, Max, Mean, Stddev, Median float64
	Rounds                         int       `json:"rounds"`
	Iterations                     int       `json:"iterations"`
	Data                           []float64 `json:"data"`
}

// pytestUnit is the unit perfgate reports pytest-benchmark times in (it
// measures seconds per iteration); one fixed unit keeps runs comparable.
const pytestUnit = "us"

// ParsePytest parses pytest-benchmark JSON (--benchmark-json, or a file
// saved with --benchmark-save). stats.data, the per-round times divided by
// the iterations per round, are the samples. A file saved without
// --benchmark-save-data has no data: the median is kept as one summary,
// flagged SummaryOnly. Times are converted from seconds to microseconds.
func ParsePytest(name string, data []byte, o Options) ([]model.Benchmark, error) {
	var f pytestFile
	if err := decodeJSON(name, data, &f); err != nil {
		return nil, err
	}
	out := make([]model.Benchmark, 0, len(f.Benchmarks))
	seen := map[string]bool{}
	for i, pb := range f.Benchmarks {
		path := fmt.Sprintf("$.benchmarks[%d]", i)
		b, err := pytestBenchmark(name, path, pb, o.suite(PytestBenchmark))
		if err != nil {
			return nil, err
		}
		if seen[b.Name] {
			return nil, bad(name, path+".fullname", "benchmark %q appears twice", b.Name)
		}
		seen[b.Name] = true
		if f.Version != "" {
			b.Info["pytest_benchmark"] = f.Version
		}
		out = append(out, b)
	}
	return out, nil
}

func pytestBenchmark(file, path string, pb pytestBench, suite string) (model.Benchmark, error) {
	b := model.Benchmark{Suite: suite, Name: first(pb.Fullname, pb.Name), Unit: pytestUnit, Better: model.Lower, Info: map[string]string{}}
	if b.Name == "" {
		return b, bad(file, path+".name", "a benchmark needs a name")
	}
	st := pb.Stats
	if st == nil {
		return b, bad(file, path+".stats", "missing (is this pytest-benchmark JSON?)")
	}
	const toUnit = 1e6 // seconds → microseconds
	if len(st.Data) > 0 {
		b.Samples = make([]float64, len(st.Data))
		for j, v := range st.Data {
			if err := checkSample(file, fmt.Sprintf("%s.stats.data[%d]", path, j), "s", v); err != nil {
				return b, err
			}
			b.Samples[j] = v * toUnit
		}
	} else {
		if err := checkSample(file, path+".stats.median", "s", st.Median); err != nil {
			return b, err
		}
		b.Samples = []float64{st.Median * toUnit}
		b.SummaryOnly = true
		b.Info["summary"] = fmt.Sprintf("median of %d rounds: saved without --benchmark-save-data", st.Rounds)
	}
	b.Metrics = map[string]float64{"mean_us": st.Mean * toUnit, "stddev_us": st.Stddev * toUnit,
		"min_us": st.Min * toUnit, "max_us": st.Max * toUnit, "rounds": float64(st.Rounds), "iterations": float64(st.Iterations)}
	if pb.Group != nil && *pb.Group != "" {
		b.Info["group"] = *pb.Group
	}
	b.Params = pytestParams(pb.Params)
	for k, v := range pb.ExtraInfo {
		switch x := v.(type) {
		case float64:
			b.Metrics[k] = x
		case string:
			b.Info[k] = x
		}
	}
	return b, nil
}

func pytestParams(raw map[string]json.RawMessage) map[string]string {
	if len(raw) == 0 {
		return nil
	}
	p := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			p[k] = s
		} else {
			p[k] = strings.TrimSpace(string(v))
		}
	}
	return p
}
