package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestMarkdownReferences renders a candidate whose own GEMM names cuBLAS of
// the same run as its reference: the report lists the speedup and its
// category in a collapsed section.
func TestMarkdownReferences(t *testing.T) {
	run := func(own float64) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: "r", Repo: "o/r", Commit: strings.Repeat("a", 40)},
			Benchmarks: []model.Benchmark{
				{Suite: "gemm", Name: "cublas/dtype=fp16/shape=4096x4096x4096/mode=cold", Unit: "us", Better: model.Lower,
					Samples: []float64{195, 196, 194}, Metrics: map[string]float64{"median_us": 195}},
				{Suite: "gemm", Name: "tiled/dtype=fp16/shape=4096x4096x4096/mode=cold", Unit: "us", Better: model.Lower,
					Samples: []float64{own, own + 1, own - 1}, Metrics: map[string]float64{"median_us": own, "speedup_vs_cublas": 195 / own},
					Info: map[string]string{"reference": "gemm/cublas/dtype=fp16/shape=4096x4096x4096/mode=cold"}},
			}}
	}
	c, err := compare.Compare([]*model.Results{run(560)}, []*model.Results{run(561)}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "references.md", referencesSection(t, Markdown(c, Options{})))
}

// referencesSection returns the comment's in-run references section, from
// its <details> to its </details> line.
func referencesSection(t *testing.T, comment string) string {
	t.Helper()
	i := strings.Index(comment, "<details><summary>In-run references")
	if i < 0 {
		t.Fatalf("no in-run references section:\n%s", comment)
	}
	return comment[i : strings.Index(comment[i:], "</details>")+i+len("</details>\n")]
}
