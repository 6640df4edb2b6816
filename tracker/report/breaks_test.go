package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestBreakLong(t *testing.T) {
	aN := strings.Repeat("a", maxWord)
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"short words", "out of memory", "out of memory"},
		{"exactly maxWord", aN, aN},
		{"one more", aN + "b", aN + "<wbr>b"},
		{"every maxWord", aN + aN + "c", aN + "<wbr>" + aN + "<wbr>c"},
		{"a space starts a word", aN + " " + aN + "b", aN + " " + aN + "<wbr>b"},
		{"a break starts a word", aN + "/<wbr>" + aN + "b", aN + "/<wbr>" + aN + "<wbr>b"},
		{"escapes are one character", strings.Repeat(`\*`, maxWord+1), strings.Repeat(`\*`, maxWord) + `<wbr>\*`},
		{"after punctuation", `CUDA\_ERROR\_ILLEGAL\_ADDRESS`, `CUDA\_<wbr>ERROR\_<wbr>ILLEGAL\_<wbr>ADDRESS`},
		{"a path", "/home/runner/work/flash_fwd.cu:412", "/<wbr>home/<wbr>runner/<wbr>work/<wbr>flash_<wbr>fwd.<wbr>cu:<wbr>412"},
		{"a run of punctuation breaks once", "--gpu-architecture=compute\\_90", "--<wbr>gpu-<wbr>architecture=<wbr>compute\\_<wbr>90"},
		{"camelCase", "BenchmarkInsertionSort16Long", "Benchmark<wbr>Insertion<wbr>Sort16<wbr>Long"},
		{"a word of maxWord is left whole", "BenchmarkInsertionSo", "BenchmarkInsertionSo"},
		{"entities are one character", strings.Repeat("&lt;", maxWord+1), strings.Repeat("&lt;", maxWord) + "<wbr>&lt;"},
		{"a joiner stays with its character", strings.Repeat("a", maxWord-1) + "@" + zwj + "b", strings.Repeat("a", maxWord-1) + "@" + zwj + "<wbr>b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := breakLong(tt.in); got != tt.want {
				t.Errorf("breakLong(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	const token = "ghs_e2eSecretToken0123456789abcdef"
	const password = "p@ss#1<x>"
	tests := []struct{ name, text string }{
		{"as given", "error: " + token},
		{"in a long word, escaped and broken", md("/home/runner/" + token + "/x")},
		{"in a name", mdCode("suite/Benchmark" + token)},
		{"in HTML text", htmlText("auth " + token)},
		{"a password with escapes", md("dial user:" + password + "@host")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.text, []string{token, password, "abc"})
			if !strings.Contains(got, "***") {
				t.Errorf("Redact(%q) = %q: nothing redacted", tt.text, got)
			}
			flat := strings.NewReplacer("<wbr>", "", `\`, "", zwj, "", "&lt;", "<", "&gt;", ">").Replace(got)
			for _, s := range []string{token, password, token[:12], token[len(token)-12:]} {
				if strings.Contains(flat, s) {
					t.Errorf("Redact(%q) = %q: %q is still there", tt.text, got, s)
				}
			}
		})
	}
	if got := Redact("abc abc", []string{"abc"}); got != "abc abc" {
		t.Errorf("Redact with a 3-byte secret = %q, want the text unchanged", got)
	}
}

// longWords has what widens a table unless perfgate breaks it: a long
// benchmark name without "/", a long name segment, and an error holding a
// path and a symbol of more than maxWord characters.
func longWords(t *testing.T) *compare.Comparison {
	t.Helper()
	b10 := seq(100, 1, 10)
	names := []string{
		"BenchmarkFlashAttentionForwardCausalBf16SeqLen32768HeadDim128",
		"attention/variant=sliding_window_with_global_tokens_and_alibi/n=4096",
		"crashes",
	}
	var bb, cb []model.Benchmark
	for i, n := range names {
		bb = append(bb, bm("transformer_kernels_suite_v2", n, "ns", model.Lower, b10))
		c := bm("transformer_kernels_suite_v2", n, "ns", model.Lower, scale(b10, 1.3))
		if i == 2 {
			c.Samples, c.Error = nil, "CUDA_ERROR_ILLEGAL_ADDRESS in /home/runner/work/perfgate/perfgate/kernels/attention/flash_fwd_kernel.cu:412"
		}
		cb = append(cb, c)
	}
	env := map[string]string{model.EnvGPU: "NVIDIA-H200-SXM5-141GB-HBM3e-PCIe-Gen5-x16"}
	base := []*model.Results{run("b1", "a", "main", 20, env, bb...)}
	cand := []*model.Results{run("c1", "d", "main", 21, env, cb...)}
	c, err := compare.Compare(base, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGoldenLongWords(t *testing.T) {
	golden.Check(t, "longwords.md", Markdown(longWords(t), Options{Title: "perfgate (h200-1)", Footer: "<!-- perfgate:sticky -->"}))
}

// TestRedactComment: a token in a benchmark's name and error is gone from
// the comment, though the renderer escaped it and broke it as a long word.
func TestRedactComment(t *testing.T) {
	const token = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"
	c := longWords(t)
	for i := range c.Results {
		c.Results[i].Name += "_" + token
		if c.Results[i].Reason != "" {
			c.Results[i].Reason += " (auth " + token + ")"
		}
	}
	md := Markdown(c, Options{})
	if !strings.Contains(md, "ghs\\_<wbr>16<wbr>C7e42<wbr>F292c6912<wbr>E7710c838347<wbr>Ae178<wbr>B4a") {
		t.Fatalf("the token is not rendered as the test expects (escaped, broken):\n%s", md)
	}
	got := Redact(md, []string{token})
	if flat := strings.NewReplacer("<wbr>", "", `\`, "").Replace(got); strings.Contains(flat, token[4:20]) || strings.Count(got, "***") < 6 {
		t.Errorf("the token survived Redact:\n%s", got)
	}
}
