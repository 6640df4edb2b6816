package report

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func seq(start, step float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = start + float64(i)*step
	}
	return out
}

func scale(x []float64, f float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * f
	}
	return out
}

func bm(suite, name, unit string, better model.Better, samples []float64) model.Benchmark {
	return model.Benchmark{Suite: suite, Name: name, Unit: unit, Better: better, Samples: samples}
}

func run(id, commit, branch string, day int, env map[string]string, bs ...model.Benchmark) *model.Results {
	return &model.Results{Schema: model.Schema, Run: model.Run{
		ID: id, Repo: "o/r", Commit: strings.Repeat(commit, 40), Branch: branch, Event: model.EventPush,
		Testbed: "h200-1", StartedAt: time.Date(2026, 11, day, 9, 30, 0, 0, time.UTC), Env: env,
	}, Benchmarks: bs}
}

var (
	envMain = map[string]string{model.EnvGPU: "NVIDIA H200", model.EnvDriver: "580.159.04", model.EnvCUDA: "13.0", model.EnvNVRTC: "12.8", "clocks": "locked"}
	envPR   = map[string]string{model.EnvGPU: "NVIDIA H200", model.EnvDriver: "580.160.01", model.EnvCUDA: "13.0", model.EnvNVRTC: "12.9", "clocks": "locked"}
)

// mixed is a comparison with every verdict, three baseline jobs (their
// runs pooled for the sample tests, replicates for the test across runs),
// an environment difference and a run passed over.
func mixed(t *testing.T) *compare.Comparison {
	t.Helper()
	b10 := seq(1000, 10, 10)
	noisy := []float64{100, 60, 140, 80, 120, 70, 130, 90, 110, 150}
	broken := bm("gemm", "bf16/m=4096", "us", model.Lower, nil)
	broken.Error = "CUDA_ERROR_ILLEGAL_ADDRESS"
	so := func(b model.Benchmark) model.Benchmark { b.SummaryOnly = true; return b }
	// launch: tight runs that land ±10% apart between processes.
	launch := func(f float64) model.Benchmark {
		return bm("microbatch", "launch_per_op/n=256", "us", model.Lower, scale(seq(30, 0.01, 10), f))
	}
	base := []*model.Results{
		run("b1", "a", "main", 19, envMain,
			bm("elementwise", "add/fp32/n=16777216", "ns", model.Lower, b10),
			bm("elementwise", "mul/fp32/n=16777216", "ns", model.Lower, b10),
			bm("copy", "d2d/n=1GiB", "GB/s", model.Higher, seq(3000, 2, 10)),
			bm("reduce", "sum/fp32", "us", model.Lower, noisy),
			bm("gemm", "bf16/m=4096", "us", model.Lower, seq(250, 0.5, 10)),
			bm("gemm", "fp16/m=4096", "ms", model.Lower, seq(1.5, 0.001, 10)),
			so(bm("ext", "tool-mean", "ns", model.Lower, []float64{500, 505})),
			launch(1),
		),
		run("b2", "c", "main", 20, envMain,
			bm("elementwise", "add/fp32/n=16777216", "ns", model.Lower, scale(b10, 1.004)),
			bm("elementwise", "mul/fp32/n=16777216", "ns", model.Lower, scale(b10, 1.004)),
			bm("softmax", "old", "ns", model.Lower, b10),
			launch(1.12),
		),
		run("b0", "f", "main", 18, envMain,
			bm("elementwise", "add/fp32/n=16777216", "ns", model.Lower, scale(b10, 0.997)),
			bm("elementwise", "mul/fp32/n=16777216", "ns", model.Lower, scale(b10, 0.997)),
			launch(0.91),
		),
	}
	cand := []*model.Results{run("c1", "d", "feature/faster-add", 21, envPR,
		bm("elementwise", "add/fp32/n=16777216", "ns", model.Lower, scale(b10, 0.8)),
		bm("elementwise", "mul/fp32/n=16777216", "ns", model.Lower, scale(b10, 1.25)),
		bm("copy", "d2d/n=1GiB", "GB/s", model.Higher, seq(3001, 2, 10)),
		bm("reduce", "sum/fp32", "us", model.Lower, scale(noisy, 1.15)),
		broken,
		bm("gemm", "fp16/m=4096", "ms", model.Lower, seq(1.5005, 0.001, 10)),
		so(bm("ext", "tool-mean", "ns", model.Lower, []float64{640, 650})),
		bm("attention", "flash/new", "us", model.Lower, seq(80, 1, 10)),
		launch(1.15),
	)}
	b := &model.Baseline{Runs: base, Used: []model.RunRef{base[0].Run.Ref(), base[1].Run.Ref(), base[2].Run.Ref()},
		Incomparable: []model.Incomparable{{
			Run:    model.RunRef{ID: "x", Commit: strings.Repeat("e", 40), StartedAt: time.Date(2026, 11, 18, 8, 0, 0, 0, time.UTC)},
			Reason: `GPU "NVIDIA A100-SXM4-80GB" vs "NVIDIA H200"`,
		}}}
	c, err := compare.CompareBaseline(b, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// clean is a comparison with nothing to report but unchanged benchmarks.
func clean(t *testing.T) *compare.Comparison {
	t.Helper()
	b10 := seq(1000, 10, 10)
	base := []*model.Results{run("b1", "a", "main", 20, envMain, bm("s", "x", "ns", model.Lower, b10), bm("s", "y", "GB/s", model.Higher, b10))}
	cand := []*model.Results{run("c1", "d", "pr", 21, envMain, bm("s", "x", "ns", model.Lower, seq(1001, 10, 10)), bm("s", "y", "GB/s", model.Higher, b10))}
	c, err := compare.Compare(base, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gotest is go test -bench output measured in a custom unit (a
// b.ReportMetric of CPU time, cpu-ns/op) over three baseline runs: its
// values must read as cpu-µs/op (issue 11, defect 8).
func gotest(t *testing.T) *compare.Comparison {
	t.Helper()
	b := func(name, unit string, level float64) model.Benchmark {
		return bm("gotest", name, unit, model.Lower, seq(level, level/500, 10))
	}
	var base []*model.Results
	for i, c := range []string{"a", "b", "c"} {
		base = append(base, run("b"+c, c, "main", 18+i, envMain,
			b("BenchmarkChecksum/size=1024", "cpu-ns/op", 11728*(1+0.01*float64(i))), b("BenchmarkInsertionSort", "cpu-ns/op", 40800)))
	}
	// InsertionSort's candidate ran on a busy host: its CV is 25%, the
	// baseline runs' 0.6%.
	busy := bm("gotest", "BenchmarkInsertionSort", "ns", model.Lower, scale([]float64{100, 140, 90, 170, 110, 95, 160, 100, 130, 180}, 408))
	var base2 []*model.Results
	for _, r := range base {
		r.Benchmarks[1] = bm("gotest", "BenchmarkInsertionSort", "ns", model.Lower, seq(40800, 82, 10))
		base2 = append(base2, r)
	}
	base = base2
	cand := []*model.Results{run("c1", "d", "pr", 21, envMain,
		b("BenchmarkChecksum/size=1024", "cpu-ns/op", 15100), busy)}
	c, err := compare.Compare(base, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// incomparable is a comparison where every stored run was on another GPU.
func incomparable(t *testing.T) *compare.Comparison {
	t.Helper()
	cand := []*model.Results{run("c1", "d", "pr", 21, envPR, bm("s", "x", "ns", model.Lower, seq(1, 1, 10)))}
	b := &model.Baseline{Incomparable: []model.Incomparable{
		{Run: model.RunRef{ID: "old1", Commit: strings.Repeat("a", 40)}, Reason: `GPU "NVIDIA A100" vs "NVIDIA H200"`},
		{Run: model.RunRef{ID: "old2", Commit: strings.Repeat("b", 40)}, Reason: `GPU "NVIDIA A100" vs "NVIDIA H200"`},
	}}
	c, err := compare.CompareBaseline(b, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// nastyNames are benchmark names and texts that try to break out of a
// Markdown table or ping people.
var nastyNames = []string{
	"pipe|in|name",
	"<script>alert(1)</script>",
	"@octocat please look",
	"`code` and ``more``",
	"*bold* _it_ [link](http://x) ~~s~~ \\",
	"line\nbreak\rand\ttab",
	"fixes #12 & <b>",
	"\x1b[31mred\x1b[0m",
	"<!-- hidden -->",
}

func nasty(t *testing.T) *compare.Comparison {
	t.Helper()
	b10 := seq(100, 1, 10)
	var bb, cb []model.Benchmark
	for i, n := range nastyNames {
		bb = append(bb, bm("s<|>@x", n, "ns", model.Lower, b10))
		f := 1.0
		if i%2 == 0 {
			f = 1.3
		}
		c := bm("s<|>@x", n, "ns", model.Lower, scale(b10, f))
		if i == 3 {
			c.Samples, c.Error = nil, "panic: <img src=x onerror=alert(1)> | @admin `rm -rf`"
		}
		cb = append(cb, c)
	}
	env := map[string]string{model.EnvGPU: "GPU | <i>@team</i>", "note": "`x`"}
	base := []*model.Results{run("b1", "a", "main", 20, envMain, bb...)}
	cand := []*model.Results{run("c1", "d", "@evil/<branch>|x", 21, env, cb...)}
	c, err := compare.Compare(base, cand, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGolden(t *testing.T) {
	cases := map[string]func(*testing.T) *compare.Comparison{
		"mixed": mixed, "clean": clean, "incomparable": incomparable, "nasty": nasty, "gotest": gotest,
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			c := mk(t)
			golden.Check(t, name+".md", Markdown(c, Options{Title: "perfgate (h200-1)", Footer: "<!-- perfgate:sticky -->"}))
			golden.Check(t, name+".txt", Text(c))
			var buf bytes.Buffer
			if err := JSON(&buf, c); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, name+".json", buf.String())
		})
	}
}

func TestVerdictLine(t *testing.T) {
	tests := []struct {
		name string
		mk   func(*testing.T) *compare.Comparison
		want string
	}{
		{"mixed", mixed, "❌ Regression: 1 of 10 benchmarks slower by more than 10%"},
		{"clean", clean, "✅ No regression: 2 benchmarks · 2 unchanged"},
		{"incomparable", incomparable, "🚫 Incomparable: no baseline run on a comparable testbed (2 runs passed over"},
		// The headline says inconclusive whenever any benchmark is, whatever the policy (issue 27).
		{"not yet gateable among unchanged", summarised(compare.Summary{Unchanged: 3, NotYet: 1}),
			"⚠️ No regression found, some inconclusive: 4 benchmarks · 1 not yet gateable · 3 unchanged"},
		{"insufficient among unchanged", summarised(compare.Summary{Unchanged: 3, Insufficient: 1}),
			"⚠️ No regression found, some inconclusive: 4 benchmarks · 1 with too few samples · 3 unchanged"},
		{"noisy among unchanged", summarised(compare.Summary{Unchanged: 1, Noisy: 4}),
			"⚠️ No regression found, some inconclusive: 5 benchmarks · 4 too noisy to judge · 1 unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := VerdictLine(tt.mk(t)); !strings.HasPrefix(got, tt.want) {
				t.Errorf("VerdictLine = %q, want prefix %q", got, tt.want)
			}
		})
	}
}

// summarised is a comparison with s's counts over as many results.
func summarised(s compare.Summary) func(*testing.T) *compare.Comparison {
	return func(*testing.T) *compare.Comparison {
		s.GeomeanChange = math.NaN()
		n := s.Regressions + s.Improvements + s.Warnings + s.Insufficient + s.Unchanged + s.Errors + s.Incomparable + s.Noisy + s.NotYet + s.Skipped
		return &compare.Comparison{Options: compare.DefaultOptions(), Summary: s, Results: make([]compare.Result, n)}
	}
}

// unescapedPipes counts the "|" of a Markdown line that are not escaped.
func unescapedPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// TestMarkdownEscaping checks the properties the golden file shows: every
// table row has as many cells as its header, and no user text becomes HTML,
// a mention, an issue link or a code span.
func TestMarkdownEscaping(t *testing.T) {
	out := Markdown(nasty(t), Options{})
	cells := -1
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		if cells < 0 {
			cells = unescapedPipes(line)
		} else if n := unescapedPipes(line); n != cells {
			t.Errorf("row has %d cell separators, header %d: %s", n, cells, line)
		}
	}
	for _, bad := range []string{"<script", "<img", "<b>", "<i>", "<!--", "@octocat", "@admin", "@team", "@evil", "#12", "\x1b"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains %q", bad)
		}
	}
	if strings.Contains(strings.ReplaceAll(out, "\\`", ""), "`") {
		t.Error("output contains an unescaped backtick")
	}
	txt := Text(nasty(t))
	if strings.Contains(txt, "\x1b") || strings.Contains(txt, "\r") {
		t.Error("text output contains control characters")
	}
}

func TestMarkdownMaxBytes(t *testing.T) {
	c := mixed(t)
	full := Markdown(c, Options{})
	o := Options{Overflow: "the full report is in the [job summary](https://example.com/run/1)", Footer: "<!-- perfgate:sticky -->"}
	for _, max := range []int{len(full) - 1, 2500, 1500, 900, 400, 200} {
		o.MaxBytes = max
		got := Markdown(c, o)
		if len(got) > max {
			t.Errorf("MaxBytes %d: got %d bytes", max, len(got))
		}
		if !strings.HasSuffix(got, o.Footer+"\n") || !strings.Contains(got, "job summary") {
			t.Errorf("MaxBytes %d: lost the footer or the overflow pointer:\n%s", max, got)
		}
		if max >= 900 && (!strings.HasPrefix(got, "### "+md(VerdictLine(c))) || !strings.Contains(got, "mul/<wbr>fp32")) {
			t.Errorf("MaxBytes %d: lost the verdict line or the regression row:\n%s", max, got)
		}
	}
	o.MaxBytes = 1500
	golden.Check(t, "truncated.md", Markdown(c, o))
}

// TestJSONContract decodes the JSON and checks the documented fields.
func TestJSONContract(t *testing.T) {
	var buf bytes.Buffer
	if err := JSON(&buf, mixed(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Threshold  float64 `json:"threshold_pct"`
		Alpha      float64 `json:"alpha"`
		Correction string  `json:"correction"`
		Benchmarks []struct {
			Suite, Name, Unit, Better, Verdict string
			NBaseline                          int      `json:"n_baseline"`
			Change                             *float64 `json:"change"`
			PValue                             *float64 `json:"p_value"`
		} `json:"benchmarks"`
		Summary      map[string]*float64 `json:"summary"`
		BaselineRuns []model.RunRef      `json:"baseline_runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// The threshold in percent, the unit of --threshold and .perfgate.yml
	// (issue 11, defect 3: the JSON wrote the fraction 0.1 for 10%).
	if doc.Threshold != 10 || doc.Alpha != 0.01 || doc.Correction != "bh" || len(doc.BaselineRuns) != 3 {
		t.Errorf("header: %+v", doc)
	}
	for _, k := range []string{"regressions", "improvements", "warnings", "insufficient", "unchanged", "errors", "noisy", "below_threshold", "geomean_change"} {
		if v, ok := doc.Summary[k]; !ok || v == nil || math.IsNaN(*v) {
			t.Errorf("summary.%s missing", k)
		}
	}
	for _, b := range doc.Benchmarks {
		if b.Verdict == "error" && (b.Change != nil || b.PValue != nil) {
			t.Errorf("%s: untested benchmark has change/p_value, want null", b.Name)
		}
		if b.Verdict == "regression" && (b.Change == nil || *b.Change <= 0.10 || b.PValue == nil) {
			t.Errorf("%s: regression without a change above threshold", b.Name)
		}
	}
}

func TestValueFormatting(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{999.4, "ns", "999.4 ns"},
		{1234.5, "ns", "1.234 µs"}, // %.3f rounds half to even on the binary value
		{1.5, "ms", "1.500 ms"},
		{2500, "us", "2.500 ms"},
		{3.2e9, "ns", "3.200 s"},
		{3842.1, "GB/s", "3842 GB/s"},
		{0.5, "TFLOP/s", "0.5000 TFLOP/s"},
		{2.5e7, "items/s", "25.00M items/s"},
		{math.NaN(), "ns", "—"},
	}
	for _, tt := range tests {
		if got := value(tt.v, tt.unit); got != tt.want {
			t.Errorf("value(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

// TestInterleavedNote: an interleaved comparison says so, naming the machine,
// and claims no GPU (command suites run on CPUs too).
func TestInterleavedNote(t *testing.T) {
	c := clean(t)
	if strings.Contains(Markdown(c, Options{}), "interleaved") {
		t.Fatal("a history comparison claims to be interleaved")
	}
	c.Options.Interleaved = true
	c.Candidate.Testbed = "gpu-h100-1"
	for name, out := range map[string]string{"markdown": Markdown(c, Options{}), "text": Text(c)} {
		if !strings.Contains(out, "interleaved A/B: base and head ran in alternating rounds in one job on one machine (testbed gpu-h100-1)") {
			t.Errorf("%s does not describe the interleaved run:\n%s", name, out)
		}
	}
}

// TestEscapeAutolinksAndBidi: "GH-1" outside code spans links issue 1 on
// GitHub, and bidirectional controls show a name reversed; neither gets
// through the comment's escaping, the notices or the text report (issue
// 28, item 13).
func TestEscapeAutolinksAndBidi(t *testing.T) {
	autolink := regexp.MustCompile(`(?i)gh-[0-9]`)
	for _, in := range []string{"fixes GH-1", "gh-42/x", "a\u202eb", "\u2066x\u2069y\u200f", "GH-\u202e1"} {
		notice := ChangeNotice([]NoticeStep{{Change: trend.Change{Suite: in, Name: in, Step: trend.Step{Kind: "regression",
			Run: model.RunRef{Testbed: in, Commit: in}}}}}, 0, in, "abc", "https://github.com/o/r")
		for what, out := range map[string]string{"md": md(in), "mdCode": mdCode(in), "htmlText": htmlText(in),
			"notice": notice, "text": plain(in)} {
			if what != "text" && autolink.MatchString(out) {
				t.Errorf("%s(%q) = %q autolinks an issue", what, in, out)
			}
			if strings.ContainsFunc(out, safetext.IsBidi) {
				t.Errorf("%s(%q) = %q keeps a bidirectional control", what, in, out)
			}
		}
	}
}
