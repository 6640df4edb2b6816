package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
)

// figuresRun is a run whose benchmarks carry the derived metrics of the
// harnesses: a Triton add with its in-run torch reference (a python suite),
// attention with FLOP/s, % of peak and queries/s, a row-wise kernel with its
// peak memory, the copy ceiling, a benchmark with none, a failed one and a
// hostile name.
func figuresRun() *model.Results {
	with := func(b model.Benchmark, m map[string]float64) model.Benchmark { b.Metrics = m; return b }
	broken := bm("triton", "broken", "us", model.Lower, nil)
	broken.Error = "wrong result: element 5"
	return run("r1", "a", "main", 19, envMain,
		with(bm("triton", "triton_add/dtype=fp32/n=16777216/mode=cold", "us", model.Lower, []float64{68.1, 68.3, 68.2}),
			map[string]float64{"gbps": 2951.3, "tflops": 0.246, "ops_per_s": 14662.8, "speedup_vs_torch_add": 1.013}),
		with(bm("triton", "torch_add/dtype=fp32/n=16777216/mode=cold", "us", model.Lower, []float64{69.0, 69.1, 69.2}),
			map[string]float64{"gbps": 2913.0, "ops_per_s": 14471.7}),
		with(bm("triton", "slow|<b>", "us", model.Lower, []float64{900, 901}), map[string]float64{"speedup_vs_torch_add": 0.076}),
		broken,
		with(bm("attention", "tiled/b=8/causal=false/d=128/h=16/s=2048/mode=batch", "us", model.Lower, []float64{1234, 1240}),
			map[string]float64{"tflops": 445.2, "pct_of_peak": 45.0, "queries_per_s": 2.65e8, "speedup_vs_naive": 4.2}),
		with(bm("rowwise", "layernorm/dtype=bf16/mode=cold", "us", model.Lower, []float64{204.8}), map[string]float64{"peak_mem_mb": 256, "gbps": 2621.4, "pct_of_copy": 87.1}),
		bm("rowwise", "plain", "us", model.Lower, []float64{1, 2}))
}

func TestRunSummaryFigures(t *testing.T) {
	got := RunSummary([]*model.Results{figuresRun()})
	golden.Check(t, "summary-figures.md", got)
	nb := "\u00a0"
	for _, want := range []string{
		"| <code>triton\\_add/<wbr>dtype=fp32/<wbr>n=16777216/<wbr>mode=cold</code> | 1.01×" + nb + "vs" + nb + "torch\\_add" + nb + "(excellent) | 14.7" + nb + "k" + nb + "ops/\u2060s | 2951.3 | 0.25 |",
		"0.08×" + nb + "vs" + nb + "torch\\_add" + nb + "(needs" + nb + "work)",
		"| 4.20×" + nb + "vs" + nb + "naive" + nb + "(excellent) | 265" + nb + "M" + nb + "queries/\u2060s | 445.20 | 45.0%" + nb + "of" + nb + "peak |",
		"| 2621.4 | 256.0" + nb + "MB | 87.1%" + nb + "of" + nb + "copy |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q", want)
		}
	}
	if strings.Contains(got, "<code>plain</code> |  |") || strings.Contains(got, "<b>") {
		t.Errorf("a row of no figures, or unescaped HTML:\n%s", got)
	}
}

func TestRunCSVAndLaTeX(t *testing.T) {
	var c, l bytes.Buffer
	if err := RunCSV(&c, []*model.Results{figuresRun()}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "run.csv", c.String())
	if !strings.Contains(c.String(), "r1,triton,triton_add/dtype=fp32/n=16777216/mode=cold,us,3,68.2,68.2,0.10000000000000142,68.28999999999999,68.298,68.1,68.3,1.013,torch_add,excellent,14662.8,2951.3,0.246,,,,") {
		t.Errorf("the triton_add row is wrong:\n%s", c.String())
	}
	if err := RunLaTeX(&l, []*model.Results{figuresRun()}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "run.tex", l.String())
	if strings.Contains(l.String(), "<b>") || strings.Contains(l.String(), "|<") || !strings.Contains(l.String(), `triton/slow\textbar{}\textless{}b\textgreater{}`) ||
		!strings.Contains(l.String(), `1.01$\times$ vs torch\_add (excellent)`) {
		t.Errorf("user text not escaped:\n%s", l.String())
	}
}
