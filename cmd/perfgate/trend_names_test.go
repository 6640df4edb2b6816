package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTrendAsPrinted: the names trend prints (suite/name) are accepted
// back, nothing matching is exit 2 in every format, and the table shows
// scaled medians and 8-character run IDs (issue 11, defect 5).
func TestTrendAsPrinted(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	for i, meta := range [][]string{{"--commit", strings.Repeat("a", 40), "--run-id", "11111111-2222-3333-4444-555555555555"},
		{"--commit", strings.Repeat("b", 40), "--run-id", "66666666-7777-8888-9999-000000000000"}} {
		out := filepath.Join(dir, "r"+string(rune('0'+i))+".json")
		args := append([]string{"ingest", "--format", "gotest", goTestOutput, "--out", out, "--branch", "main"}, meta...)
		if _, errOut, code := invoke(t, nil, args...); code != 0 {
			t.Fatalf("ingest: exit %d: %s", code, errOut)
		}
		if _, errOut, code := invoke(t, nil, "record", "--store", store, out); code != 0 {
			t.Fatalf("record: exit %d: %s", code, errOut)
		}
	}
	out, errOut, code := invoke(t, nil, "trend", "--store", store, "--benchmark", "*", "--since", "0")
	if code != 0 {
		t.Fatalf("trend '*': exit %d: %s", code, errOut)
	}
	header := regexp.MustCompile(`(?m)^(gotest/BenchmarkChecksum/size=1024) \(`).FindStringSubmatch(out)
	if header == nil {
		t.Fatalf("trend '*' prints no gotest/BenchmarkChecksum/size=1024 block:\n%s", out)
	}
	// 19.05 µs: the median of 17946, 19049, 21882, 17295, 24645 ns.
	for _, want := range []string{"11111111  ", "66666666  ", "19.05 µs"} {
		if !strings.Contains(out, want) {
			t.Errorf("trend table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "11111111-2222") {
		t.Errorf("trend table prints whole run IDs:\n%s", out)
	}
	out, errOut, code = invoke(t, nil, "trend", "--store", store, "--benchmark", header[1], "--since", "0", "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Errorf("trend --benchmark %s (as printed): exit %d, %s\n%s\nwant a header and 2 rows", header[1], code, errOut, out)
	}
	for _, format := range []string{"json", "table", "csv"} {
		out, errOut, code = invoke(t, nil, "trend", "--store", store, "--benchmark", "gotest/NoSuch", "--since", "0", "--format", format)
		if code != 2 || out != "" || !strings.Contains(errOut, `--benchmark: nothing matches "gotest/NoSuch"`) {
			t.Errorf("trend --format %s of nothing: exit %d, stdout %q, stderr %q; want 2, nothing on stdout, a message", format, code, out, errOut)
		}
	}
}
