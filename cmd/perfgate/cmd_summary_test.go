package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExports runs summary over the committed H100 history and compare
// with the csv and latex formats.
func TestExports(t *testing.T) {
	hist := filepath.Join("..", "..", "examples", "history")
	out, errOut, code := invoke(t, nil, "summary", filepath.Join(hist, "main-1.json"))
	if code != 0 || !strings.Contains(out, "| <code>add/<wbr>dtype=fp32/<wbr>n=1M/<wbr>mode=cold</code> | us | ") || !strings.Contains(out, "NVIDIA H100 80GB HBM3") {
		t.Errorf("summary: exit %d, %s\n%.600s", code, errOut, out)
	}
	file := filepath.Join(t.TempDir(), "SUMMARY.md")
	if _, errOut, code := invoke(t, nil, "summary", "--out", file, filepath.Join(hist, "main-2.json")); code != 0 {
		t.Errorf("summary --out: exit %d, %s", code, errOut)
	} else if b, _ := os.ReadFile(file); !strings.HasPrefix(string(b), "# perfgate run summary") {
		t.Errorf("%s: %.100q", file, b)
	}
	if _, errOut, code := invoke(t, nil, "summary"); code != 2 || !strings.Contains(errOut, "results file") {
		t.Errorf("summary without files: exit %d, %q", code, errOut)
	}
	// A single run as CSV and LaTeX, with the derived figures (the history's
	// GB/s and % of copy).
	out, errOut, code = invoke(t, nil, "summary", "--format", "csv", filepath.Join(hist, "main-1.json"))
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) < 2 || rows[0][2] != "name" || rows[0][16] != "gbps" || rows[1][16] == "" {
		t.Errorf("summary --format csv: exit %d, %v, %s\n%.400s", code, err, errOut, out)
	}
	out, errOut, code = invoke(t, nil, "summary", "--format", "latex", filepath.Join(hist, "main-1.json"))
	if code != 0 || !strings.Contains(out, `\begin{tabular}`) || !strings.Contains(out, "GB/s") {
		t.Errorf("summary --format latex: exit %d, %s\n%.400s", code, errOut, out)
	}
	charts := filepath.Join(t.TempDir(), "charts")
	if _, errOut, code := invoke(t, nil, "summary", "--charts", charts, "--out", file, filepath.Join(hist, "main-1.json")); code != 0 || !strings.Contains(errOut, "wrote 2 files to "+charts) {
		t.Errorf("summary --charts: exit %d, %q", code, errOut)
	} else if b, err := os.ReadFile(filepath.Join(charts, "elementwise-time-cold.svg")); err != nil || !strings.Contains(string(b), "elementwise (cold): median time by n") {
		t.Errorf("the elementwise chart: %v %.200q", err, b)
	}
	if _, errOut, code := invoke(t, nil, "summary", "--format", "html", filepath.Join(hist, "main-1.json")); code != 2 || !strings.Contains(errOut, "--format") {
		t.Errorf("summary --format html: exit %d, %q", code, errOut)
	}

	base := []string{"--baseline", filepath.Join(hist, "main-1.json"), "--baseline", filepath.Join(hist, "main-2.json"),
		"--candidate", filepath.Join(hist, "main-3.json")}
	out, errOut, code = invoke(t, nil, append([]string{"compare", "--format", "csv"}, base...)...)
	rows, err = csv.NewReader(strings.NewReader(out)).ReadAll()
	if code > 1 || err != nil || len(rows) != 37 || rows[0][0] != "suite" || rows[0][7] != "change" {
		t.Errorf("compare --format csv: exit %d, %v, %s: %d rows", code, err, errOut, len(rows))
	}
	out, errOut, code = invoke(t, nil, append([]string{"compare", "--format", "latex"}, base...)...)
	if code > 1 || !strings.Contains(out, `\begin{tabular}`) || strings.Count(out, `\\`) != 37 {
		t.Errorf("compare --format latex: exit %d, %s\n%s", code, errOut, out)
	}
}

// TestGPUDocTorchRatios: docs/gpu.md's table of ratios over PyTorch is
// what summary --speedups torch writes for the results files its marker
// names (committed GPU runs of run --reference torch), never edited by
// hand: the marker line is the command, and the table its output.
func TestGPUDocTorchRatios(t *testing.T) {
	const prefix, end = "<!-- generated: perfgate summary --speedups torch ", "<!-- end generated -->"
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gpu.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), prefix)
	marker, rest, ok2 := strings.Cut(rest, " -->\n")
	table, _, ok3 := strings.Cut(rest, end)
	if !ok || !ok2 || !ok3 {
		t.Fatalf("docs/gpu.md has no section between %q… --> and %q", prefix, end)
	}
	files := strings.Fields(marker)
	if len(files) == 0 {
		t.Fatal("the marker names no results files")
	}
	for i, f := range files {
		files[i] = filepath.Join("..", "..", filepath.FromSlash(f))
	}
	out, errOut, code := invoke(t, nil, append([]string{"summary", "--speedups", "torch"}, files...)...)
	if code != 0 {
		t.Fatalf("summary --speedups torch %v: exit %d: %s", files, code, errOut)
	}
	if table != out {
		t.Errorf("docs/gpu.md's table of ratios is not the generator's output; replace it with\n%s", out)
	}
}

// TestSummarySpeedups: --speedups writes the table of a run's ratios over
// its in-run PyTorch references, and is Markdown only.
func TestSummarySpeedups(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ref.json")
	res := `{"schema": "perfgate.results/v1", "run": {"id": "r", "repo": "o/r", "commit": "` + strings.Repeat("a", 40) +
		`", "branch": "main", "event": "push", "testbed": "t", "started_at": "2026-11-27T09:00:00Z"}, "benchmarks": [` +
		`{"suite": "elementwise", "name": "add/dtype=fp32/n=16M/mode=cold", "unit": "us", "better": "lower", "samples": [50],` +
		` "metrics": {"median_us": 50, "speedup_vs_torch": 1.02}, "info": {"reference_torch": "elementwise/torch.add/dtype=fp32/n=16M/mode=cold"}},` +
		`{"suite": "elementwise", "name": "torch.add/dtype=fp32/n=16M/mode=cold", "unit": "us", "better": "lower", "samples": [51], "metrics": {"median_us": 51}}]}`
	if err := os.WriteFile(file, []byte(res), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := invoke(t, nil, "summary", "--speedups", "torch", file)
	want := "| suite | benchmark | reference | cold | batch |\n|:--|:--|:--|--:|--:|\n" +
		"| <code>elementwise</code> | <code>add/dtype=fp32/n=16M</code> | <code>torch.add</code> | 1.02× (excellent) |  |\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, %s\n%s\nwant\n%s", code, errOut, out, want)
	}
	if _, errOut, code := invoke(t, nil, "summary", "--speedups", "torch", "--format", "csv", file); code != 2 || !strings.Contains(errOut, "--speedups writes one Markdown table") {
		t.Errorf("--speedups --format csv: exit %d, %q", code, errOut)
	}
}
