package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChart draws both charts from a recorded history and a comparison
// report, and checks the images decode to the asked size.
func TestChart(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var files []string
	for h := range 12 {
		median := 100.0
		if h >= 6 {
			median = 120
		}
		files = append(files, writeRuns(t, dir, histRun("r"+string(rune('a'+h)), h, median))...)
	}
	if _, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, files...)...); code != 0 {
		t.Fatalf("record: exit %d, %s", code, errOut)
	}
	trendPNG := filepath.Join(dir, "trend.png")
	if _, errOut, code := invoke(t, nil, "chart", "trend", "--store", store, "--benchmark", "add/*/*/*", "--since", "0", "--out", trendPNG); code != 0 {
		t.Fatalf("chart trend: exit %d, %s", code, errOut)
	}
	checkPNG(t, trendPNG, 768, 384)

	report := filepath.Join(dir, "report.json")
	out, errOut, code := invoke(t, nil, "compare", "--baseline", files[0], "--baseline", files[1], "--candidate", files[11], "--format", "json")
	if code != 1 { // the candidate is 20% slower
		t.Fatalf("compare: exit %d, %s", code, errOut)
	}
	if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cmpPNG := filepath.Join(dir, "cmp.png")
	if _, errOut, code := invoke(t, nil, "chart", "compare", "--report", report, "--out", cmpPNG, "--width", "6", "--height", "2"); code != 0 {
		t.Fatalf("chart compare: exit %d, %s", code, errOut)
	}
	checkPNG(t, cmpPNG, 576, 192)
	svg := filepath.Join(dir, "cmp.svg")
	if _, errOut, code := invoke(t, nil, "chart", "compare", "--report", report, "--out", svg); code != 0 {
		t.Fatalf("chart compare svg: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(svg); !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("%s is no SVG", svg)
	} else if !bytes.Contains(b, []byte("stroke-dasharray")) {
		// The ±threshold lines are dashed: the chart read threshold_pct
		// (the JSON's threshold is in percent).
		t.Errorf("%s has no dashed ±threshold lines", svg)
	}

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no kind", []string{"chart"}, "trend or compare"},
		{"no out", []string{"chart", "trend", "--store", store, "--benchmark", "*"}, "--out"},
		{"bad format", []string{"chart", "trend", "--store", store, "--benchmark", "*", "--out", "x.gif"}, "--format"},
		{"nothing matches", []string{"chart", "trend", "--store", store, "--benchmark", "nope", "--since", "0", "--out", filepath.Join(dir, "n.png")}, "nothing matches"},
		{"no report", []string{"chart", "compare", "--out", "x.png"}, "--report"},
		{"report not JSON", []string{"chart", "compare", "--report", files[0] + "x", "--out", "x.png"}, "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := invoke(t, nil, c.args...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, %q; want 2 mentioning %q", code, errOut, c.want)
			}
		})
	}
}

func checkPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s is %dx%d, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
}
