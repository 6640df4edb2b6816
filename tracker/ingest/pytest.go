package ingest

import (
	"encoding/json"
	"fmt"
	"math"
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
	if len(st.Data) > 0 {
		b.Samples = make([]float64, len(st.Data))
		for j, v := range st.Data {
			p := fmt.Sprintf("%s.stats.data[%d]", path, j)
			if err := checkSample(file, p, "s", v); err != nil {
				return b, err
			}
			us, err := toMicro(file, p, v)
			if err != nil {
				return b, err
			}
			b.Samples[j] = us
		}
	} else {
		if err := checkSample(file, path+".stats.median", "s", st.Median); err != nil {
			return b, err
		}
		us, err := toMicro(file, path+".stats.median", st.Median)
		if err != nil {
			return b, err
		}
		b.Samples = []float64{us}
		b.SummaryOnly = true
		b.Info["summary"] = fmt.Sprintf("median of %d rounds: saved without --benchmark-save-data", st.Rounds)
	}
	b.Metrics = map[string]float64{"rounds": float64(st.Rounds), "iterations": float64(st.Iterations)}
	for _, m := range []struct {
		field string
		v     float64
	}{{"mean", st.Mean}, {"stddev", st.Stddev}, {"min", st.Min}, {"max", st.Max}} {
		us, err := toMicro(file, path+".stats."+m.field, m.v)
		if err != nil {
			return b, err
		}
		b.Metrics[m.field+"_us"] = us
	}
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

// toMicro converts seconds to microseconds; a value so large that the
// product is not finite (1e305 s) is bad input naming its field, not a
// results document that cannot be written.
func toMicro(file, path string, s float64) (float64, error) {
	us := s * 1e6
	if math.IsInf(us, 0) || math.IsNaN(us) {
		return 0, bad(file, path, "%v s is out of range (not finite in microseconds)", s)
	}
	return us, nil
}
