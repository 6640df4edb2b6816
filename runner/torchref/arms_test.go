package torchref

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
)

// builtins returns every built-in benchmark name of every size preset, by suite.
func builtins() map[string][]string {
	out := map[string][]string{}
	for _, size := range kernels.Sizes {
		for _, s := range kernels.ListFor(kernels.Options{Size: size}) {
			for _, n := range s.Benchmarks {
				if !slices.Contains(out[s.Name], n) {
					out[s.Name] = append(out[s.Name], n)
				}
			}
		}
	}
	return out
}

// withTorch are the suites issue 31 names, where every benchmark has a
// PyTorch equivalent; the others have none.
var withTorch = []string{"elementwise", "rowwise", "gemm", "attention", "decode", "microbatch", "mixedops"}

func TestEveryBuiltinBenchmarkIsMapped(t *testing.T) {
	all := builtins()
	if len(all) < len(withTorch) {
		t.Fatalf("kernels lists %d suites", len(all))
	}
	for suite, names := range all {
		for _, name := range names {
			refs, mode, err := For(suite, name)
			if err != nil {
				t.Fatalf("%s/%s: %v", suite, name, err)
			}
			if mode == "" {
				t.Errorf("%s/%s: no mode", suite, name)
			}
			want := slices.Contains(withTorch, suite)
			if (len(refs) > 0) != want {
				t.Errorf("%s/%s: %d references, want them only in %v", suite, name, len(refs), withTorch)
			}
			if want && refs[0].Arm.Metric != "torch" {
				t.Errorf("%s/%s: first arm %q, want PyTorch's default (metric torch)", suite, name, refs[0].Arm.Metric)
			}
		}
	}
}

// TestArmNamesCannotCollide: an arm's op is never a built-in op (the dot),
// and no arm name is a built-in benchmark's name, at any size.
func TestArmNamesCannotCollide(t *testing.T) {
	ops := kernels.OpNames()
	for suite, names := range builtins() {
		for _, name := range names {
			refs, mode, _ := For(suite, name)
			for _, r := range refs {
				if slices.Contains(ops, r.Arm.Op) || !strings.HasPrefix(r.Arm.Op, "torch.") {
					t.Errorf("%s: arm op %q", name, r.Arm.Op)
				}
				if n := r.Name(mode); slices.Contains(names, n) {
					t.Errorf("%s/%s: arm name %q is a built-in benchmark's", suite, name, n)
				}
			}
		}
	}
}

// TestFactoriesExist: every factory and check the mapping names is a
// function of torchref.py, and a factory names every parameter and
// argument of the cases it gets (the harness passes them as keyword
// arguments; one left to **_ would be ignored, as tf32 would be).
func TestFactoriesExist(t *testing.T) {
	src, err := os.ReadFile("../../pyharness/perfgate_harness/torchref.py")
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{} // function → its parameter list
	for _, m := range regexp.MustCompile(`(?m)^def (\w+)\(([^)]*)\):`).FindAllStringSubmatch(string(src), -1) {
		defs[m[1]] = m[2]
	}
	for suite, names := range builtins() {
		for _, name := range names {
			refs, _, _ := For(suite, name)
			for _, r := range refs {
				for _, fn := range []string{r.Arm.Factory, r.Arm.Check} {
					if fn == "" {
						continue
					}
					params, ok := defs[fn]
					if !ok {
						t.Fatalf("%s/%s: torchref.py has no function %s", suite, name, fn)
					}
					if fn == r.Arm.Check {
						continue // the expected output need not depend on every parameter
					}
					if i := strings.Index(params, "**"); i >= 0 {
						params = params[:i]
					}
					for k := range r.Params {
						if !regexp.MustCompile(`\b` + k + `\b`).MatchString(params) {
							t.Errorf("%s/%s: %s(%s) takes no parameter %s", suite, name, fn, params, k)
						}
					}
					for k := range r.Arm.Args {
						if !regexp.MustCompile(`\b` + k + `\b`).MatchString(params) {
							t.Errorf("%s/%s: %s(%s) takes no argument %s", suite, name, fn, params, k)
						}
					}
				}
			}
		}
	}
}

func TestFor(t *testing.T) {
	for _, tc := range []struct {
		suite, name string
		want        []string // arm names
	}{
		{"elementwise", "swish/dtype=bf16/n=16M/mode=cold", []string{"torch.silu/dtype=bf16/n=16M/mode=cold"}},
		{"rowwise", "dropout/dtype=fp16/shape=16x256x64/keep=0.9/mode=batch", []string{"torch.dropout/dtype=fp16/keep=0.9/shape=16x256x64/mode=batch"}},
		{"gemm", "tiled/dtype=fp32/tf32=off/shape=1024x1024x1024/mode=cold", []string{"torch.matmul/dtype=fp32/shape=1024x1024x1024/tf32=off/mode=cold"}},
		{"attention", "naive/dtype=fp16/b=4/h=32/hkv=8/s=2048/d=128/causal=true/mode=cold", []string{
			"torch.sdpa/b=4/causal=true/d=128/dtype=fp16/h=32/hkv=8/s=2048/mode=cold",
			"torch.flash_attn2/b=4/causal=true/d=128/dtype=fp16/h=32/hkv=8/s=2048/mode=cold"}},
		{"microbatch", "persistent/n=4K/ops=10000/mode=batch", []string{"torch.eager/n=4K/ops=10000/mode=batch",
			"torch.graph/n=4K/ops=10000/mode=batch", "torch.compile/n=4K/ops=10000/mode=batch"}},
		{"memory", "copy_float4/bytes=128M/mode=cold", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refs, mode, err := For(tc.suite, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.Name(mode))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, _, err := For("elementwise", "add/dtype=fp32/n"); err == nil {
		t.Error("a segment without = was accepted")
	}
	if _, _, err := For("elementwise", "add/dtype=fp32"); err == nil {
		t.Error("a name without mode was accepted")
	}
}
