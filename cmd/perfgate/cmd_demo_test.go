package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/golden"
)

const (
	examplesDir  = "../../examples"           // real H100 runs: the README's demo
	syntheticDir = "../../examples/synthetic" // hand-made data with every kind of verdict
)

func TestDemo(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the demo's temporary store goes here, and must be gone after
	_, cwdStoreBefore := os.Stat(filestoreDefault)
	// Only the default (markdown) output, the one README.md shows, is
	// golden: the report package's own goldens cover the other formats.
	for _, format := range []string{"", "text", "json"} {
		t.Run("format="+format, func(t *testing.T) {
			args := []string{"demo", "--examples", examplesDir}
			if format != "" {
				args = append(args, "--format", format)
			}
			out, errOut, code := invoke(t, nil, args...)
			if code != cli.ExitRegression {
				t.Fatalf("demo: exit %d, want 1 (the example PR has a regression); stderr %s", code, errOut)
			}
			if !strings.Contains(errOut, "recorded 5 main-branch runs") {
				t.Errorf("stderr does not narrate the demo: %q", errOut)
			}
			switch format {
			case "":
				golden.Check(t, "demo.md", out)
			case "text":
				if !strings.HasPrefix(out, "perfgate: Regression") {
					t.Errorf("text output does not start with the verdict line:\n%s", out)
				}
			case "json":
				if !json.Valid([]byte(out)) {
					t.Errorf("json output is not JSON:\n%s", out)
				}
			}
		})
	}
	if ents, err := os.ReadDir(tmp); err != nil || len(ents) != 0 {
		t.Errorf("the demo left %d entries in its temporary directory (%v)", len(ents), err)
	}
	if _, err := os.Stat(filestoreDefault); os.IsNotExist(cwdStoreBefore) && !os.IsNotExist(err) {
		t.Errorf("the demo created %s in the working directory", filestoreDefault)
	}
}

const filestoreDefault = ".perfgate"

// demoVerdicts runs the demo on dir and returns the benchmarks by verdict
// and the number of baseline runs used.
func demoVerdicts(t *testing.T, dir string) (verdicts map[string][]string, baselineRuns, total int) {
	t.Helper()
	verdicts, _, baselineRuns, total = demoJudged(t, dir)
	return verdicts, baselineRuns, total
}

// demoJudged is demoVerdicts that also lists the benchmarks whose adjusted
// p-value is significant at the default alpha (in either direction).
func demoJudged(t *testing.T, dir string) (verdicts map[string][]string, significant []string, baselineRuns, total int) {
	t.Helper()
	out, errOut, code := invoke(t, nil, "demo", "--examples", dir, "--format", "json")
	if code != cli.ExitRegression {
		t.Fatalf("demo: exit %d: %s", code, errOut)
	}
	var c struct {
		BaselineRuns []json.RawMessage `json:"baseline_runs"`
		Benchmarks   []struct {
			Suite, Name, Verdict string
			PAdjusted            *float64 `json:"p_adjusted"`
			PAdjustedBetter      *float64 `json:"p_adjusted_better"`
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	verdicts = map[string][]string{}
	for _, b := range c.Benchmarks {
		key := b.Suite + "/" + b.Name
		verdicts[b.Verdict] = append(verdicts[b.Verdict], key)
		if b.PAdjusted != nil && *b.PAdjusted < 0.01 || b.PAdjustedBetter != nil && *b.PAdjustedBetter < 0.01 {
			significant = append(significant, key)
		}
	}
	return verdicts, significant, len(c.BaselineRuns), len(c.Benchmarks)
}

// TestDemoRealData checks what examples/README.md says of the H100 runs:
// exactly the six fp16 add benchmarks regress, three baseline runs are
// used, and no benchmark the PR did not touch (gelu, relu) shows a
// significant change: judged across runs, the shifts between processes are
// noise, not news. (fp32 add, which the PR did touch, moves by +0.8 to
// +1.5% and may be reported as smaller than the threshold.)
func TestDemoRealData(t *testing.T) {
	verdicts, significant, runs, _ := demoJudged(t, examplesDir)
	if runs != 3 {
		t.Errorf("%d baseline runs used, want 3", runs)
	}
	var want []string
	for _, n := range []string{"16M", "1M", "64M"} {
		for _, mode := range []string{"batch", "cold"} {
			want = append(want, "elementwise/add/dtype=fp16/n="+n+"/mode="+mode)
		}
	}
	if got := verdicts["regression"]; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("regressions %v, want %v", got, want)
	}
	for _, k := range significant {
		if !strings.HasPrefix(k, "elementwise/add/") {
			t.Errorf("untouched benchmark %s is significant (verdicts %v)", k, verdicts)
		}
	}
	if n := len(verdicts["improvement"]) + len(verdicts["error"]); n != 0 {
		t.Errorf("%d improvements or errors, want none (verdicts %v)", n, verdicts)
	}
}

// TestDemoData checks what examples/synthetic/README.md promises of the
// synthetic data, whatever the exact numbers: one regression on gelu fp16,
// one improvement on add fp16, the noisy microbatch benchmark too noisy to
// judge (its five single-process jobs lend it no replication, so its own
// ±1% spread on their degrees of freedom hides a +10% change), and three
// baseline runs used.
func TestDemoData(t *testing.T) {
	verdicts, runs, total := demoVerdicts(t, syntheticDir)
	if runs != 3 {
		t.Errorf("%d baseline runs used, want 3", runs)
	}
	want := map[string]string{
		"regression":  "elementwise/gelu/dtype=fp16/n=16M/mode=batch",
		"improvement": "elementwise/add/dtype=fp16/n=16M/mode=batch",
		"noisy":       "microbatch/launch_per_op/n=256/ops=10000/mode=batch",
	}
	for v, name := range want {
		if got := verdicts[v]; len(got) != 1 || got[0] != name {
			t.Errorf("%s: %v, want exactly [%s]", v, got, name)
		}
	}
	if n := len(verdicts["unchanged"]); n+3 != total || n < 5 {
		t.Errorf("%d unchanged of %d benchmarks; want all the others, at least 5", n, total)
	}
}

func TestDemoUsage(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no example data", []string{"--examples", filepath.Join(t.TempDir(), "nowhere")}, "--examples"},
		{"bad format", []string{"--examples", examplesDir, "--format", "html"}, "-format"},
		{"stray argument", []string{"--examples", examplesDir, "pr.json"}, "pr.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := invoke(t, nil, append([]string{"demo"}, c.args...)...)
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q", code, errOut, c.wantErr)
			}
		})
	}
}

// TestScreenshotIsTheDemo: docs/img/pr-comment.png renders
// docs/screenshots/pr-comment.md, which must be what the demo prints
// (testdata/demo.md, checked by TestDemo): when the comment changes, run
// docs/screenshots/pr-comment.sh, which rewrites both (issue 30: the picture
// no longer matched what the demo prints).
func TestScreenshotIsTheDemo(t *testing.T) {
	shot := readFile(t, filepath.Join("..", "..", "docs", "screenshots", "pr-comment.md"))
	if demo := readFile(t, filepath.Join("testdata", "demo.md")); shot != demo {
		t.Errorf("docs/screenshots/pr-comment.md is not the demo's comment (testdata/demo.md): run bash docs/screenshots/pr-comment.sh")
	}
}
