//go:build cuda

package kernels

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels/suite"
)

// TestAttentionAndDecodeMetrics runs small attention and decode cases and
// checks that each passed its CPU check and carries the metrics users read.
func TestAttentionAndDecodeMetrics(t *testing.T) {
	s := openSession(t)
	tests := []struct {
		suite, filter string
		want          []string
	}{
		{"attention", "b=8/h=4/s=128/d=64/causal=(true|false)/mode=batch", []string{"tflops", "gbps", "queries_per_s", "max_abs_err_vs_cpu", "max_rel_err_vs_cpu", "p99_us", "std_us"}},
		{"decode", "dtype=bf16/.*l=128/mode=batch", []string{"tokens_per_s", "max_abs_err_vs_cpu", "p95_us", "mean_us"}},
	}
	for _, tt := range tests {
		t.Run(tt.suite, func(t *testing.T) {
			o := Options{Fast: true, Size: SizeSmall, Filter: regexp.MustCompile(tt.filter), CacheDir: t.TempDir(),
				Progress: func(l string) { t.Log(l) }}
			bs, err := s.RunSuite(context.Background(), tt.suite, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) == 0 {
				t.Fatal("no benchmarks ran")
			}
			for _, b := range bs {
				if b.Error != "" {
					t.Errorf("%s: %s", b.Name, b.Error)
					continue
				}
				for _, k := range tt.want {
					if _, ok := b.Metrics[k]; !ok {
						t.Errorf("%s: no %s in %v", b.Name, k, b.Metrics)
					}
				}
				base := map[string]string{"attention": "naive/", "decode": "per_launch/"}[tt.suite]
				speedup := map[string]string{"attention": "speedup_vs_naive", "decode": "speedup_vs_per_launch"}[tt.suite]
				if !strings.HasPrefix(b.Name, base) && b.Metrics[speedup] <= 0 {
					t.Errorf("%s: no %s: %v", b.Name, speedup, b.Metrics)
				}
			}
		})
	}
}

// TestTiledAgainstNaive prepares the tiled kernel at S = 1024 (one K/V head
// per query head, and grouped-query with two query heads per K/V head), where it is
// also checked against the naive path on every element, in both dtypes and
// both masks.
func TestTiledAgainstNaive(t *testing.T) {
	s := openSession(t)
	for _, sh := range []attnShape{mha(1, 2, 1024, 128), {B: 2, H: 4, S: 1024, D: 128, KVH: 2}} {
		testTiledAgainstNaive(t, s, sh)
	}
}

func testTiledAgainstNaive(t *testing.T, s *Session, sh attnShape) {
	for _, dt := range attnDTypes {
		for _, causal := range []bool{false, true} {
			c := suite.Case{Suite: "attention", Op: "tiled", DType: dt,
				Params: append([]suite.Param{{K: "dtype", V: dt}}, shapeParams(sh, causal)...)}
			t.Run(c.Name(""), func(t *testing.T) {
				err := s.do(func(g *gpu) error {
					g.cacheDir = t.TempDir()
					p, err := prepareAttention(g, c)
					if err != nil {
						return err
					}
					defer p.cleanup()
					for _, k := range []string{"max_abs_err_vs_cpu", "max_abs_err_vs_naive"} {
						if _, ok := p.meta.Metrics[k]; !ok {
							t.Errorf("no %s in %v", k, p.meta.Metrics)
						}
					}
					t.Logf("errors: %v", p.meta.Metrics)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
