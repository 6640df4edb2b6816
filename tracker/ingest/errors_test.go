package ingest

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, format, input string
		opt                 Options
		want                string // substring of the error, which must be an InputError naming f.txt
	}{
		{"gotest bad value", GoTest, "pkg: x\nBenchmarkA-2  10  abc ns/op\n", Options{}, "f.txt: line 2: malformed result line: parsing measurement"},
		{"gotest odd pairs", GoTest, "BenchmarkA-2  10  12 ns/op 3\n", Options{}, "f.txt: line 1: malformed result line"},
		{"gotest negative time", GoTest, "BenchmarkA-2  10  5 ns/op\nBenchmarkA-2  10  -5 ns/op\n", Options{}, "f.txt: line 2: -5 ns/op: a time cannot be negative"},
		{"gotest negative metric", GoTest, "BenchmarkA-2  10  5 ns/op  -3 cpu-ns/op\n", Options{Metric: "cpu-ns/op"}, "line 1: -3 cpu-ns/op: a time cannot be negative"},
		{"nvbench duplicate", NVBench, `{"benchmarks": [{"name": "b", "states": [{"summaries": []}, {"summaries": []}]}]}`, Options{}, "benchmark nvbench/b appears twice"},
		// Issue 28, item 14: a 5 MB line read "line 0: token too long".
		{"gotest long result line", GoTest, "pkg: x\nBenchmarkA-2  10  5 ns/op\nBenchmarkB-2  10  5 ns/op " + strings.Repeat("7 x/op ", 1<<17) + "\n", Options{}, "f.txt: line 3: a result line of 917530 bytes"},
		{"gotest nothing", GoTest, "PASS\nok x 0.1s\n", Options{}, "no benchmarks found"},
		{"gbench syntax", GBench, "{\"benchmarks\": [\n{\"name\": }]}", Options{}, "f.txt: line 2, column 10: invalid JSON"},
		{"gbench type", GBench, `{"benchmarks": [{"name": "a", "real_time": "fast"}]}`, Options{}, "$.benchmarks.real_time (near line 1): must be a number"},
		{"gbench unit", GBench, `{"benchmarks": [{"name": "a", "run_type": "iteration", "real_time": 1, "time_unit": "fortnights"}]}`, Options{}, "$.benchmarks[0].time_unit: \"fortnights\" is not a time unit"},
		{"gbench negative", GBench, `{"benchmarks": [{"name": "a", "real_time": -1}]}`, Options{}, "$.benchmarks[0].real_time: -1 is not a valid ns measurement"},
		{"pytest no stats", PytestBenchmark, `{"benchmarks": [{"name": "t"}]}`, Options{}, "$.benchmarks[0].stats: missing"},
		{"gotest invalid UTF-8", GoTest, "BenchmarkA\xff-2  10  5 ns/op\n", Options{}, "f.txt: line 1, column 11: byte 0xff at offset 10 is not valid UTF-8"},
		{"pytest invalid UTF-8", PytestBenchmark, "{\"benchmarks\": [{\"name\": \"t\xfe\"}]}", Options{}, "is not valid UTF-8"},
		{"pytest max too large", PytestBenchmark, `{"benchmarks": [{"name": "t", "stats": {"data": [0.1], "max": 1e305}}]}`, Options{}, "$.benchmarks[0].stats.max: 1e+305 s is out of range"},
		{"pytest sample too large", PytestBenchmark, `{"benchmarks": [{"name": "t", "stats": {"data": [0.1, 1e305]}}]}`, Options{}, "$.benchmarks[0].stats.data[1]: 1e+305 s is out of range"},
		{"pytest median too large", PytestBenchmark, `{"benchmarks": [{"name": "t", "stats": {"median": 1e305}}]}`, Options{}, "$.benchmarks[0].stats.median: 1e+305 s is out of range"},
		{"pytest bad data", PytestBenchmark, `{"benchmarks": [{"name": "t", "stats": {"data": [0.1, -2]}}]}`, Options{}, "$.benchmarks[0].stats.data[1]"},
		{"nvbench bad value", NVBench, `{"benchmarks": [{"name": "b", "states": [{"summaries": [{"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "x"}]}]}]}]}`, Options{}, "$.benchmarks[0].states[0].summaries[0].data"},
		{"json-samples no unit", JSONSamples, `{"a": [1, 2]}`, Options{}, "no unit"},
		{"json-samples not numbers", JSONSamples, `{"a": ["x"]}`, Options{Unit: "ms"}, `$["a"]: must be an array of numbers`},
		// Issue 28, item 12: encoding/json kept the last of two keys, dropping the first's samples.
		{"json-samples key twice", JSONSamples, `{"a": [1, 2], "a": [3]}`, Options{Unit: "ms"}, `key "a" appears twice`},
		{"json-samples benchmark twice", JSONSamples, `{"unit": "ms", "benchmarks": {"a": [1], "b": [2], "a": [3]}}`, Options{}, `$["benchmarks"] (line 1, column 51): key "a" appears twice`},
		{"json-samples field twice", JSONSamples, `{"a": {"samples": [1], "unit": "ms", "samples": [2]}}`, Options{}, `$["a"] (line 1, column 38): key "samples" appears twice`},
		{"json-samples unit twice", JSONSamples, `{"unit": "ms", "unit": "s", "benchmarks": {"a": [1]}}`, Options{}, `key "unit" appears twice`},
		// Issue 28, item 14: it read "must be an array of numbers".
		{"json-samples out of range", JSONSamples, `{"a": [1, 1e400]}`, Options{Unit: "ms"}, `$["a"][1]: 1e400 is out of the range of a 64-bit float`},
		{"json-samples bad better", JSONSamples, `{"a": [1]}`, Options{Unit: "ms", Better: "up"}, `better: "up"`},
		{"comprehensive no time", Comprehensive, `[{"operation": "a", "implementation": "b", "batch_size": 1}]`, Options{}, "$[0].time_ms: missing"},
		{"comprehensive no op", Comprehensive, `[{"implementation": "b", "time_ms": 1}]`, Options{}, "$[0]: a record needs operation"},
		{"sdpa bad line", SDPAJSONL, "{\"B\": 1, \"H\": 1, \"S\": 1, \"d\": 1, \"median_ms\": 1}\n{oops\n", Options{}, "f.txt: line 2: not a JSON object"},
		{"sdpa missing d", SDPAJSONL, `{"B": 1, "H": 1, "S": 1, "median_ms": 1}`, Options{}, "line 1: record has no d"},
		{"sdpa no latency", SDPAJSONL, `{"B": 1, "H": 1, "S": 1, "d": 2}`, Options{}, "line 1: record has no latency"},
		{"comprehensive nested object", Comprehensive, `[{"operation": "a", "implementation": "b", "time_ms": 1, "cfg": {"x": 1}}]`, Options{}, "$[0].cfg: an object is not a parameter"},
		{"comprehensive array field", Comprehensive, `[{"operation": "a", "implementation": "b", "time_ms": 1, "times": [1, 2]}]`, Options{}, "$[0].times: an array is not a parameter"},
		{"comprehensive fractional param", Comprehensive, `[{"operation": "a", "implementation": "b", "batch_size": 8.5, "time_ms": 1}]`, Options{}, "$[0].batch_size: 8.5 is not a whole number"},
		{"comprehensive time as text", Comprehensive, `[{"operation": "a", "implementation": "b", "time_ms": "1.2"}]`, Options{}, "$[0].time_ms: missing or not a number"},
		{"comprehensive record not an object", Comprehensive, `[1]`, Options{}, "must be an object"},
		{"sdpa B as text", SDPAJSONL, `{"B": "four", "H": 1, "S": 1, "d": 2, "median_ms": 1}`, Options{}, `line 1: B: "four" is not a positive whole number`},
		{"sdpa fractional S", SDPAJSONL, `{"B": 1, "H": 1, "S": 1.5, "d": 2, "median_ms": 1}`, Options{}, "line 1: S: 1.5 is not a positive whole number"},
		{"sdpa nested object", SDPAJSONL, `{"B": 1, "H": 1, "S": 1, "d": 2, "median_ms": 1, "cfg": {"a": 1}}`, Options{}, "line 1: cfg: an object is not a parameter"},
		{"sdpa stray array", SDPAJSONL, `{"B": 1, "H": 1, "S": 1, "d": 2, "median_ms": 1, "shape": [1, 2]}`, Options{}, "line 1: shape: an array, but only samples_<unit>"},
		{"sdpa samples not numbers", SDPAJSONL, `{"B": 1, "H": 1, "S": 1, "d": 2, "samples_ms": [1, "x"]}`, Options{}, "line 1: samples_ms[1] is not a number"},
		{"sdpa not an object", SDPAJSONL, `[1, 2]`, Options{}, "line 1: not a JSON object"},
		{"perfgate invalid", Perfgate, `{"schema": "nope"}`, Options{}, "f.txt"},
		{"trailing data", GBench, `{"benchmarks": []} {}`, Options{}, "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bs, err := Parse(tt.format, "f.txt", []byte(tt.input), tt.opt)
			if err == nil {
				t.Fatalf("no error; got %d benchmarks", len(bs))
			}
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T) is not an InputError", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestCriterionErrors(t *testing.T) {
	sample := `{"sampling_mode": "Linear", "iters": [1, 2], "times": [10, 20]}`
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"empty", fstest.MapFS{"x.txt": {Data: []byte("x")}}, "no criterion benchmarks found"},
		{"no benchmark.json", fstest.MapFS{"a/new/sample.json": {Data: []byte(sample)}}, "needs benchmark.json and sample.json"},
		{"length mismatch", fstest.MapFS{
			"a/new/sample.json":    {Data: []byte(`{"iters": [1], "times": [1, 2]}`)},
			"a/new/benchmark.json": {Data: []byte(`{"full_id": "a"}`)},
		}, "target/a/new/sample.json: $.times: iters has 1 entries and times 2"},
		{"zero iters", fstest.MapFS{
			"a/new/sample.json":    {Data: []byte(`{"iters": [0], "times": [1]}`)},
			"a/new/benchmark.json": {Data: []byte(`{"full_id": "a"}`)},
		}, "$.iters[0]: must be a positive count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCriterion(tt.files, "target", Options{})
			if err == nil || !model.IsInputError(err) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want an InputError containing %q", err, tt.want)
			}
		})
	}
}

func TestMergePoolsRepeats(t *testing.T) {
	a := []model.Benchmark{{Suite: "s", Name: "x", Unit: "ns", Samples: []float64{1, 2}}, {Suite: "s", Name: "y", Unit: "ns", Error: "boom"}}
	b := []model.Benchmark{{Suite: "s", Name: "x", Unit: "ns", Samples: []float64{3}, SummaryOnly: true}, {Suite: "s", Name: "y", Unit: "ns", Samples: []float64{7}}}
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0].Samples) != 3 || !got[0].SummaryOnly || got[1].Error != "" || len(got[1].Samples) != 1 {
		t.Errorf("Merge = %+v", got)
	}
	if got[1].Info["failed_parts"] != "1 of 2 parts failed: boom" {
		t.Errorf("failed parts not recorded: %v", got[1].Info)
	}
	if a[0].Samples[1] != 2 || len(a[0].Samples) != 2 {
		t.Errorf("Merge changed its input: %+v", a[0])
	}
	if _, err := Merge(a, []model.Benchmark{{Suite: "s", Name: "x", Unit: "ms", Samples: []float64{1}}}); err == nil {
		t.Error("Merge of ns and ms gave no error")
	}
}

// TestErrorsDeterministic: a record with several bad fields names the same
// one every time (they were checked in map order, so the error changed
// from run to run, and so did the code a fuzzer's input covered: the
// comprehensive target stalled minimizing such inputs).
func TestErrorsDeterministic(t *testing.T) {
	for _, c := range []struct{ format, input string }{
		{Comprehensive, `[{"operation": "a", "implementation": "b", "time_ms": 1, "a1": [1], "b2": {"x": 1}, "batch_size": 1.5, "c3": [2], "d4": [3], "e5": {}}]`},
		{SDPAJSONL, `{"B": 1, "H": 1, "S": 1.5, "d": 2, "x1": {"a": 1}, "x2": {}, "shape": [1], "y": {}, "z": {}}`},
	} {
		first := ""
		for i := range 50 {
			_, err := Parse(c.format, "f.txt", []byte(c.input), Options{})
			if err == nil {
				t.Fatalf("%s: no error", c.format)
			}
			if i == 0 {
				first = err.Error()
			} else if err.Error() != first {
				t.Fatalf("%s: the error changed between runs:\n  %s\n  %s", c.format, first, err)
			}
		}
	}
}

// TestCriterionThroughputDeterministic: a throughput naming two kinds gives
// the same metric every time (it went by map order).
func TestCriterionThroughputDeterministic(t *testing.T) {
	bench := []byte(`{"full_id": "a/b", "throughput": {"Bytes": 64, "Elements": 8, "BytesDecimal": 32}}`)
	sample := []byte(`{"sampling_mode": "Linear", "iters": [1, 2], "times": [10, 21]}`)
	for range 50 {
		b, err := CriterionBenchmark("f", bench, sample, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := b.Metrics["elements_per_second"]; !ok || len(b.Metrics) != 1 {
			t.Fatalf("metrics %v, want elements_per_second alone every time", b.Metrics)
		}
	}
}
