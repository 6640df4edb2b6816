package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// torchRun is a run of perfgate run --reference torch as runner/torchref
// merges it: built-in benchmarks with speedup_vs_torch* and
// info.reference_*, the tiled GEMM also with its cuBLAS reference, the
// arms as benchmarks of their own, a built-in benchmark whose arm failed
// (no speedup) and one that failed itself. scale multiplies perfgate's
// medians (another round).
func torchRun(id string, scale float64) *model.Results {
	type ref struct {
		metric, arm string
		v           float64
	}
	b := func(suite, name string, us float64, refs ...ref) model.Benchmark {
		x := bm(suite, name, "us", model.Lower, []float64{us * scale, us*scale + 0.1, us*scale - 0.1})
		x.Metrics, x.Info = map[string]float64{"median_us": us * scale}, map[string]string{}
		for _, r := range refs {
			x.Metrics["speedup_vs_"+r.metric] = r.v / scale
			x.Info["reference_"+r.metric] = suite + "/" + r.arm
		}
		return x
	}
	const mm = "torch.matmul/dtype=fp16/shape=4096x4096x4096/mode=cold"
	tiled := b("gemm", "tiled/dtype=fp16/shape=4096x4096x4096/mode=cold", 560, ref{"torch", mm, 0.348})
	tiled.Metrics["speedup_vs_cublas"], tiled.Info["reference"] = 0.35, "gemm/cublas/dtype=fp16/shape=4096x4096x4096/mode=cold"
	failed := bm("elementwise", "gelu/dtype=bf16/n=16M/mode=cold", "us", model.Lower, nil)
	failed.Error = "wrong result"
	return run(id, "a", "main", 27, envMain,
		b("elementwise", "add/dtype=fp32/n=16M/mode=cold", 52.7, ref{"torch", "torch.add/dtype=fp32/n=16M/mode=cold", 0.99}),
		b("elementwise", "add/dtype=fp32/n=16M/mode=batch", 47.7, ref{"torch", "torch.add/dtype=fp32/n=16M/mode=batch", 1.01}),
		b("elementwise", "swish/dtype=bf16/n=16M/mode=cold", 40.0),
		failed,
		b("elementwise", "torch.add/dtype=fp32/n=16M/mode=cold", 52.2),
		b("attention", "tiled/dtype=fp16/b=8/h=16/s=2048/d=128/causal=true/mode=batch", 900,
			ref{"torch", "torch.sdpa/b=8/causal=true/d=128/dtype=fp16/h=16/s=2048/mode=batch", 0.42},
			ref{"torch_flash_attn2", "torch.flash_attn2/b=8/causal=true/d=128/dtype=fp16/h=16/s=2048/mode=batch", 0.45}),
		b("microbatch", "launch_per_op/n=4K/ops=10000/mode=cold", 2.5,
			ref{"torch", "torch.eager/n=4K/ops=10000/mode=cold", 2.9}, ref{"torch_graph", "torch.graph/n=4K/ops=10000/mode=cold", 0.61},
			ref{"torch_compile", "torch.compile/n=4K/ops=10000/mode=cold", 0.15}),
		tiled,
		b("gemm", "cublas/dtype=fp16/shape=4096x4096x4096/mode=cold", 195, ref{"torch", mm, 1.0}),
		b("gemm", mm, 195))
}

func TestWriteSpeedups(t *testing.T) {
	var sb strings.Builder
	if err := WriteSpeedups(&sb, []*model.Results{torchRun("r1", 1), torchRun("r2", 2), torchRun("r3", 0.5)}, "torch"); err != nil {
		t.Fatal(err)
	}
	got := sb.String()
	golden.Check(t, "speedups-torch.md", got)
	for _, want := range []string{ // the median of the three rounds is the first's; categories at their bounds
		"| <code>elementwise</code> | <code>add/dtype=fp32/n=16M</code> | <code>torch.add</code> | 0.99× (excellent) | 1.01× (excellent) |",
		"| <code>microbatch</code> | <code>launch\\_per\\_op/<wbr>n=4K/<wbr>ops=10000</code> | <code>torch.compile</code> | 0.15× (needs work) |  |",
		"<code>torch.flash\\_attn2</code> |  | 0.45× (fair) |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "cuBLAS") || strings.Contains(got, "<code>cublas</code> |") || strings.Contains(got, "gelu") || strings.Contains(got, "swish") {
		t.Errorf("a reference other than PyTorch's, a failed benchmark or one without a speedup is in the table:\n%s", got)
	}

	sb.Reset()
	if err := WriteSpeedups(&sb, []*model.Results{figuresRun()}, "torch"); err != nil {
		t.Fatal(err)
	}
	if sb.String() != "No benchmark of these results has a speedup_vs_torch metric.\n" {
		t.Errorf("without the metric: %q", sb.String())
	}
}

// TestTorchReferencesRendered: with speedup_vs_torch present, the summary
// shows each speedup with its category beside the times, and the PR
// comment lists each in the in-run references with the arm it divides by.
func TestTorchReferencesRendered(t *testing.T) {
	golden.Check(t, "summary-torch.md", RunSummary([]*model.Results{torchRun("r1", 1)}))
	c, err := compare.Compare([]*model.Results{torchRun("c", 1)}, []*model.Results{torchRun("b", 1)}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	section := referencesSection(t, Markdown(c, Options{}))
	golden.Check(t, "references-torch.md", section)
	if !strings.Contains(section, "| <code>gemm/<wbr>tiled/<wbr>dtype=fp16/<wbr>shape=<wbr>4096x4096x4096/<wbr>mode=cold</code> | <code>gemm/<wbr>torch.matmul/") ||
		!strings.Contains(section, "| 0.150× | needs work |") {
		t.Errorf("the tiled GEMM's PyTorch reference or a category is missing:\n%s", section)
	}
}
