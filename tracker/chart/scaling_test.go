package chart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// pyRun is a run of a python suite: a Triton add and its torch reference
// at three sizes and two dtypes, in both modes, plus a suite with no size.
func pyRun() *model.Results {
	r := &model.Results{Schema: model.Schema}
	for _, mode := range []string{"cold", "batch"} {
		for _, dt := range []string{"fp32", "bf16"} {
			for i, n := range []string{"1048576", "4194304", "16777216"} {
				mine := 5.0 * float64(int(1)<<(2*i))
				for _, op := range []string{"triton_add", "torch_add"} {
					b := model.Benchmark{Suite: "triton", Name: op + "/dtype=" + dt + "/n=" + n + "/mode=" + mode, Unit: "us", Better: model.Lower,
						Params: map[string]string{"dtype": dt, "n": n, "mode": mode}, Samples: []float64{mine, mine, mine}}
					if op == "triton_add" {
						b.Metrics = map[string]float64{"speedup_vs_torch_add": 0.9 + 0.05*float64(i)}
					} else {
						b.Samples = []float64{mine * 1.1, mine * 1.1}
					}
					r.Benchmarks = append(r.Benchmarks, b)
				}
			}
		}
	}
	r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "misc<x>", Name: "only/one", Unit: "us", Better: model.Lower, Samples: []float64{1}})
	return r
}

func TestRunCharts(t *testing.T) {
	files, err := RunCharts([]*model.Results{pyRun()}, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"triton-speedup-batch.svg", "triton-speedup-cold.svg", "triton-time-batch.svg", "triton-time-cold.svg"}
	if !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v (no chart for a suite without a size)", names, want)
	}
	svg := string(files["triton-speedup-cold.svg"])
	for _, s := range []string{"triton (cold): speedup over the in-run reference by n", "triton_add/dtype=fp32 vs torch_add", "triton_add/dtype=bf16 vs torch_add"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the speedup chart lacks %q", s)
		}
	}
	if strings.Contains(svg, "torch_add/dtype=fp32 vs") {
		t.Error("the reference, which has no speedup, is drawn in the speedup chart")
	}
	time := string(files["triton-time-cold.svg"])
	if !strings.Contains(time, "triton (cold): median time by n") || !strings.Contains(time, "torch_add/dtype=bf16") {
		t.Errorf("the time chart lacks its title or a series")
	}
	for n, b := range files {
		if err := xml.NewDecoder(bytes.NewReader(b)).Decode(new(any)); err != nil && err != io.EOF {
			t.Errorf("%s: not XML: %v", n, err)
		}
	}
	two, err := RunCharts([]*model.Results{pyRun(), pyRun()}, "png")
	if err != nil || len(two) != 8 || two["run2-triton-time-cold.png"] == nil {
		t.Errorf("two runs: %d files, %v", len(two), err)
	}
}

// TestRunChartsOfH100Runs draws the charts of committed H100 runs: the
// elementwise suite of the demo's history (6 series a mode) and
// the microbatch and mixedops suites, whose strategies have in-run speedups.
func TestRunChartsOfH100Runs(t *testing.T) {
	var runs []*model.Results
	for _, f := range []string{"../../examples/history/main-1.json", "../../docs/results/h100-microbatch-mixedops.json"} {
		r, err := resultsjson.Load(filepath.FromSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	files, err := RunCharts(runs, "png")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"run1-elementwise-time-cold.png", "run2-microbatch-speedup-cold.png",
		"run2-mixedops-time-batch.png", "run2-mixedops-speedup-batch.png"} {
		if files[n] == nil {
			t.Errorf("no %s among %d files", n, len(files))
		}
	}
	golden.CheckFunc(t, "run-elementwise-time-cold.png", files["run1-elementwise-time-cold.png"], samePixels(t, "run-elementwise-time-cold.png"))
	golden.CheckFunc(t, "run-microbatch-speedup-cold.png", files["run2-microbatch-speedup-cold.png"], samePixels(t, "run-microbatch-speedup-cold.png"))
}

// TestRunChartsSplit: more series than MaxLines go to numbered charts.
func TestRunChartsSplit(t *testing.T) {
	r := &model.Results{Schema: model.Schema}
	for op := range MaxLines + 1 {
		for _, n := range []string{"1K", "1M"} {
			r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "s", Name: fmt.Sprintf("op%d/n=%s", op, n), Unit: "ns", Better: model.Lower, Samples: []float64{1000}})
		}
	}
	files, err := RunCharts([]*model.Results{r}, "svg")
	if err != nil || len(files) != 2 || files["s-time-all-1.svg"] == nil || !strings.Contains(string(files["s-time-all-2.svg"]), "op8") {
		t.Errorf("%d files, %v", len(files), err)
	}
}

func TestSizeValueAndSafeName(t *testing.T) {
	for s, want := range map[string]float64{"4K": 4096, "16M": 16 << 20, "1G": 1 << 30, "1048576": 1048576, "2.5": 2.5} {
		if v, ok := sizeValue(s); !ok || v != want {
			t.Errorf("sizeValue(%q) = %v %v, want %v", s, v, ok, want)
		}
	}
	for _, s := range []string{"fp32", "", "-1", "NaN", "K"} {
		if _, ok := sizeValue(s); ok {
			t.Errorf("sizeValue(%q) is a size", s)
		}
	}
	for in, want := range map[string]string{"../../etc": "_.._etc", "a b/c": "a_b_c", "ok-1.2_x": "ok-1.2_x", "": "_", "…": "_"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
