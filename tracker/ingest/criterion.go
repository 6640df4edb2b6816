package ingest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Criterion.rs writes, for every benchmark, the directory
// target/criterion/<directory_name>/new/ with benchmark.json (the
// BenchmarkId: group_id, function_id, value_str, throughput, full_id,
// directory_name, title), sample.json (SavedSample: sampling_mode and the
// parallel arrays iters and times, times in nanoseconds for the whole
// sample) and estimates.json. Reference: bheisler/criterion.rs
// src/analysis/mod.rs (where it saves SavedSample, and computes the
// per-iteration average times[i]/iters[i]) and src/report.rs (BenchmarkId).

type criterionID struct {
	GroupID       string          `json:"group_id"`
	FunctionID    *string         `json:"function_id"`
	ValueStr      *string         `json:"value_str"`
	Throughput    json.RawMessage `json:"throughput"`
	FullID        string          `json:"full_id"`
	DirectoryName string          `json:"directory_name"`
}

type criterionSample struct {
	SamplingMode string    `json:"sampling_mode"`
	Iters        []float64 `json:"iters"`
	Times        []float64 `json:"times"`
}

// ParseCriterion reads every */new/ directory under root (target/criterion),
// or every */NAME/ one for o.CriterionBaseline NAME (a baseline saved with
// --save-baseline NAME; "base" is the previous run). Each sample is
// times[i]/iters[i], the mean time per iteration of one Criterion sample, in
// nanoseconds (Criterion's WallTime measurement). A throughput declaration
// becomes a bytes_per_second or elements_per_second metric at the median
// time. Other baselines are ignored.
func ParseCriterion(root fs.FS, name string, o Options) ([]model.Benchmark, error) {
	want := "new"
	if o.CriterionBaseline != "" {
		if !validBaselineName(o.CriterionBaseline) {
			return nil, &model.InputError{File: name, Msg: fmt.Sprintf("criterion baseline %q is not a directory name (letters, digits, '.', '_', '-')", o.CriterionBaseline)}
		}
		want = o.CriterionBaseline
	}
	var dirs []string
	seen := map[string]bool{} // the baseline names present, for the error message
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || !isCriterionRun(root, p) {
			return nil
		}
		if d.Name() == want {
			dirs = append(dirs, p)
		} else if validBaselineName(d.Name()) {
			seen[d.Name()] = true
		}
		return fs.SkipDir
	})
	if err != nil {
		return nil, &model.InputError{File: name, Msg: "cannot read the criterion directory", Err: err}
	}
	sort.Strings(dirs)
	var out []model.Benchmark
	for _, dir := range dirs {
		bj, err1 := fs.ReadFile(root, path.Join(dir, "benchmark.json"))
		sj, err2 := fs.ReadFile(root, path.Join(dir, "sample.json"))
		if err1 != nil || err2 != nil {
			return nil, &model.InputError{File: path.Join(name, dir), Msg: "needs benchmark.json and sample.json", Err: first2(err1, err2)}
		}
		b, err := CriterionBenchmark(path.Join(name, dir), bj, sj, o)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("no criterion benchmarks found (want <name>/%s/sample.json below it, e.g. target/criterion)", want)
		if len(seen) > 0 {
			msg += "; baselines present: " + strings.Join(slices.Sorted(maps.Keys(seen)), ", ")
		}
		return nil, &model.InputError{File: name, Msg: msg}
	}
	return out, checkUnique(name, out)
}

// isCriterionRun reports whether directory p holds one run of one benchmark
// (new/, base/ or a named baseline): its sample.json. A benchmark whose own
// name is "base" or "new" is a directory above such a run, not one.
func isCriterionRun(root fs.FS, p string) bool {
	_, err := fs.Stat(root, path.Join(p, "sample.json"))
	return err == nil
}

// baselineName is what Criterion accepts as a baseline and perfgate as a
// path component: no separators, no "." or "..".
var baselineName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

func validBaselineName(s string) bool { return len(s) <= 100 && baselineName.MatchString(s) }

func first2(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// CriterionBenchmark builds one benchmark from the benchmark.json and
// sample.json of one new/ directory; dir labels errors.
func CriterionBenchmark(dir string, benchmarkJSON, sampleJSON []byte, o Options) (model.Benchmark, error) {
	var id criterionID
	var s criterionSample
	if err := decodeJSON(path.Join(dir, "benchmark.json"), benchmarkJSON, &id); err != nil {
		return model.Benchmark{}, err
	}
	sfile := path.Join(dir, "sample.json")
	if err := decodeJSON(sfile, sampleJSON, &s); err != nil {
		return model.Benchmark{}, err
	}
	name := first(id.FullID, id.DirectoryName)
	if name == "" {
		return model.Benchmark{}, bad(path.Join(dir, "benchmark.json"), "$.full_id", "missing")
	}
	if len(s.Iters) != len(s.Times) || len(s.Times) == 0 {
		return model.Benchmark{}, bad(sfile, "$.times", "iters has %d entries and times %d; want the same, at least one", len(s.Iters), len(s.Times))
	}
	b := model.Benchmark{Suite: o.suite(Criterion), Name: name, Unit: "ns", Better: model.Lower,
		Samples: make([]float64, len(s.Times)), Info: map[string]string{"sampling_mode": s.SamplingMode}}
	for i := range s.Times {
		if !(s.Iters[i] > 0) || !finite(s.Iters[i]) {
			return b, bad(sfile, fmt.Sprintf("$.iters[%d]", i), "must be a positive count, not %v", s.Iters[i])
		}
		v := s.Times[i] / s.Iters[i]
		if err := checkSample(sfile, fmt.Sprintf("$.times[%d]", i), "ns", v); err != nil {
			return b, err
		}
		b.Samples[i] = v
	}
	if id.ValueStr != nil && *id.ValueStr != "" {
		b.Params = map[string]string{"value": *id.ValueStr}
	}
	if id.GroupID != "" {
		b.Info["group"] = id.GroupID
	}
	if err := criterionThroughput(&b, id.Throughput); err != nil {
		return b, bad(path.Join(dir, "benchmark.json"), "$.throughput", "%v", err)
	}
	return b, nil
}

// criterionThroughput turns {"Bytes": n}, {"BytesDecimal": n} or
// {"Elements": n} into a rate metric at the median time per iteration.
func criterionThroughput(b *model.Benchmark, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var t map[string]float64
	if err := json.Unmarshal(raw, &t); err != nil {
		return fmt.Errorf("want {\"Bytes\": n} or {\"Elements\": n}: %v", err)
	}
	med := median(append([]float64(nil), b.Samples...))
	// In a fixed order, not the map's: of two kinds given, the same one
	// wins every time.
	for _, kind := range []string{"Bytes", "BytesDecimal", "Elements"} {
		n, ok := t[kind]
		if !ok || med <= 0 || !finite(n) {
			continue
		}
		if kind == "Elements" {
			b.Metrics = map[string]float64{"elements_per_second": n / med * 1e9}
		} else {
			b.Metrics = map[string]float64{"bytes_per_second": n / med * 1e9}
		}
	}
	return nil
}
