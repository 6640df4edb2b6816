package ingest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// nvbench's JSON output (--json FILE), file version 1: benchmarks, each with
// states (one per point of its axes), each with summaries identified by tag.
// Values are written as strings. With --jsonbin, a summary tagged
// "nv/json/bin:nv/cold/sample_times" names a file of little-endian float32
// per-sample GPU times in seconds. Reference: NVIDIA/nvbench
// nvbench/json_printer.cu (do_print_benchmark_results, write_named_values,
// do_process_bulk_data_float64) and nvbench/detail/measure_cold.cu (tags).

type nvbFile struct {
	Benchmarks []nvbBench `json:"benchmarks"`
}

type nvbBench struct {
	Name    string     `json:"name"`
	Devices []int      `json:"devices"`
	States  []nvbState `json:"states"`
}

type nvbState struct {
	Name       string          `json:"name"`
	Device     int             `json:"device"`
	AxisValues []nvbNamedValue `json:"axis_values"`
	Summaries  []nvbSummary    `json:"summaries"`
	IsSkipped  bool            `json:"is_skipped"`
	SkipReason string          `json:"skip_reason"`
}

type nvbSummary struct {
	Tag  string          `json:"tag"`
	Name string          `json:"name"`
	Hint string          `json:"hint"`
	Data []nvbNamedValue `json:"data"`
}

type nvbNamedValue struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// get returns the named value of a summary and its declared type.
func (s *nvbSummary) get(name string) (value, typ string, ok bool) {
	for _, d := range s.Data {
		if d.Name == name {
			return fmt.Sprint(d.Value), d.Type, true
		}
	}
	return "", "", false
}

// Tags of the summaries perfgate reads.
const (
	nvbColdGPUMean = "nv/cold/time/gpu/mean"
	nvbSampleTimes = "nv/json/bin:nv/cold/sample_times"
)

// nvbUnit is the unit of nvbench samples: GPU kernels are microseconds-scale.
const nvbUnit = "us"

// ParseNVBench parses nvbench JSON. With readBin (which reads a --jsonbin
// file named in the JSON) each state's per-sample cold GPU times are the
// samples; without it, or when a state has no such file, the cold GPU mean is
// kept as one summary, flagged SummaryOnly. Other float summaries become
// metrics (durations in us). Skipped states give a benchmark with Error set.
func ParseNVBench(name string, data []byte, readBin func(file string) ([]byte, error), o Options) ([]model.Benchmark, error) {
	var f nvbFile
	if err := decodeJSON(name, data, &f); err != nil {
		return nil, err
	}
	var out []model.Benchmark
	for i, bench := range f.Benchmarks {
		for j, st := range bench.States {
			path := fmt.Sprintf("$.benchmarks[%d].states[%d]", i, j)
			b, err := nvbBenchmark(name, path, bench, st, readBin, o.suite(NVBench))
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	return out, checkUnique(name, out)
}

func nvbBenchmark(file, path string, bench nvbBench, st nvbState, readBin func(string) ([]byte, error), suite string) (model.Benchmark, error) {
	b := model.Benchmark{Suite: suite, Unit: nvbUnit, Better: model.Lower, Samples: []float64{}, Params: map[string]string{}, Info: map[string]string{}}
	parts := []string{bench.Name}
	for _, av := range st.AxisValues {
		v := fmt.Sprint(av.Value)
		b.Params[av.Name] = v
		parts = append(parts, av.Name+"="+v)
	}
	if len(bench.Devices) > 1 {
		parts = append(parts, fmt.Sprintf("device=%d", st.Device))
	}
	b.Name = strings.Join(parts, "/")
	if bench.Name == "" {
		return b, bad(file, path, "the benchmark has no name")
	}
	if st.IsSkipped {
		b.Error = "skipped by nvbench: " + first(st.SkipReason, "no reason given")
		return b, nil
	}
	var mean float64
	haveMean := false
	for k, s := range st.Summaries {
		spath := fmt.Sprintf("%s.summaries[%d]", path, k)
		if s.Tag == nvbSampleTimes && readBin != nil {
			if err := nvbReadSamples(file, spath, &b, s, readBin); err != nil {
				return b, err
			}
			continue
		}
		raw, typ, ok := s.get("value")
		if !ok || typ == "string" {
			continue
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || !finite(v) {
			return b, bad(file, spath+".data", "value %q of %s is not a number", raw, s.Tag)
		}
		if s.Tag == nvbColdGPUMean {
			mean, haveMean = v, true
		}
		nvbMetric(&b, s, v)
	}
	switch {
	case len(b.Samples) > 0:
	case haveMean:
		if err := checkSample(file, path+".summaries", "s", mean); err != nil {
			return b, err
		}
		b.Samples = []float64{mean * 1e6}
		b.SummaryOnly = true
		b.Info["summary"] = "nv/cold/time/gpu/mean: no --jsonbin sample times"
	default:
		b.Error = "no " + nvbColdGPUMean + " summary"
	}
	return b, nil
}

func nvbMetric(b *model.Benchmark, s nvbSummary, v float64) {
	if b.Metrics == nil {
		b.Metrics = map[string]float64{}
	}
	if s.Hint == "duration" {
		b.Metrics[s.Tag+"[us]"] = v * 1e6
		return
	}
	b.Metrics[s.Tag] = v
}

func nvbReadSamples(file, path string, b *model.Benchmark, s nvbSummary, readBin func(string) ([]byte, error)) error {
	fname, _, ok := s.get("filename")
	if !ok {
		return bad(file, path, "sample times summary names no filename")
	}
	data, err := readBin(fname)
	if err != nil {
		return &model.InputError{File: file, Path: path, Msg: "cannot read sample times file " + fname, Err: err}
	}
	if len(data)%4 != 0 {
		return bad(fname, "", "%d bytes is not a whole number of float32 values", len(data))
	}
	if size, _, ok := s.get("size"); ok {
		if n, err := strconv.Atoi(size); err == nil && n != len(data)/4 {
			return bad(fname, "", "holds %d samples, the JSON says %d", len(data)/4, n)
		}
	}
	for i := 0; i < len(data); i += 4 {
		v := float64(math.Float32frombits(binary.LittleEndian.Uint32(data[i:])))
		if err := checkSample(fname, fmt.Sprintf("sample %d", i/4), "s", v); err != nil {
			return err
		}
		b.Samples = append(b.Samples, v*1e6)
	}
	b.Info["samples"] = "cold GPU time per sample from " + fname
	return nil
}
