package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sdpaLines writes JSONL records of one configuration whose latencies are
// about ms: with raw samples (20 of them, jittered ±1%), or as 20 lines of
// one median each, as a harness that keeps no samples writes them.
func sdpaLines(ms float64, raw bool) string {
	var xs []string
	for i := range 20 {
		xs = append(xs, fmt.Sprintf("%.4f", ms*(1+0.01*float64(i%5-2)/2)))
	}
	rec := `{"B": 8, "H": 16, "S": 2048, "d": 128, "precision": "fp16", "backend": "flash", "causal": false, %s}`
	if raw {
		return fmt.Sprintf(rec, `"samples_ms": [`+strings.Join(xs, ", ")+`], "median_ms": `+xs[0]) + "\n"
	}
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(fmt.Sprintf(rec, `"median_ms": `+x) + "\n")
	}
	return b.String()
}

// TestSDPARawSamplesCanFailTheGate ingests an SDPA harness's JSONL for a
// baseline and a candidate 25% slower: with raw samples the comparison finds
// a regression (exit 1); with summaries only it can only warn (exit 0).
func TestSDPARawSamplesCanFailTheGate(t *testing.T) {
	for _, tt := range []struct {
		raw      bool
		wantCode int
		want     string
	}{
		{true, 1, "regression"},
		{false, 0, "no raw samples: ratio only"},
	} {
		t.Run(fmt.Sprintf("raw=%v", tt.raw), func(t *testing.T) {
			dir := t.TempDir()
			var results []string
			for i, ms := range []float64{0.80, 1.00} {
				in := filepath.Join(dir, fmt.Sprintf("run%d.jsonl", i))
				if err := os.WriteFile(in, []byte(sdpaLines(ms, tt.raw)), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, fmt.Sprintf("run%d.json", i))
				if _, stderr, code := invoke(t, nil, "ingest", "--format", "sdpa-jsonl", "--commit", strings.Repeat(fmt.Sprint(i+1), 40),
					"--repo", "o/r", "--branch", "main", "--testbed", "h100", "--out", out, in); code != 0 {
					t.Fatalf("ingest exit %d: %s", code, stderr)
				}
				results = append(results, out)
			}
			stdout, stderr, code := invoke(t, nil, "compare", "--baseline", results[0], "--candidate", results[1])
			if code != tt.wantCode || !strings.Contains(stdout, tt.want) {
				t.Errorf("compare exit %d (want %d), output lacks %q:\n%s%s", code, tt.wantCode, tt.want, stdout, stderr)
			}
		})
	}
}
