package site

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/chromiumtest"
	"github.com/perfgate/perfgate/tracker/model"
)

// serve builds a site of in and serves it.
func serve(t *testing.T, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		data, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(name, ".html"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		case strings.HasSuffix(name, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
		case strings.HasSuffix(name, ".css"):
			w.Header().Set("Content-Type", "text/css")
		case strings.HasSuffix(name, ".json"):
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// scripts ran, and the console messages Chromium logged.
func dumpDOM(t *testing.T, bin, url string, extra ...string) (dom, console string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--window-size=1280,1600",
		"--virtual-time-budget=10000"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	var msgs []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "CONSOLE") {
			msgs = append(msgs, line)
		}
	}
	return string(out), strings.Join(msgs, "\n")
}

// TestBrowser loads the index and a suite page in a real headless
// Chromium, served and opened from disk (file://, where fetch() is
// refused: issue 30): no console message, no error shown, charts drawn
// with readable axes, and the filter (from the URL) leaves the matching
// series only.
func TestBrowser(t *testing.T) {
	bin := chromiumtest.Find(t)
	o := DefaultOptions()
	o.RepoURL, o.Branch = "https://github.com/o/r", "main"
	files, err := Build(synthetic(2, 8, 300), o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	for mode, base := range map[string]string{"served": serve(t, files).URL, "file": "file://" + dir} {
		t.Run(mode, func(t *testing.T) {
			dom, console := dumpDOM(t, bin, base+"/index.html", "--dump-dom")
			if console != "" || strings.Contains(dom, `id="errors"`) || !strings.Contains(dom, `href="suite0-`) {
				t.Errorf("index: console %q\n%s", console, dom)
			}
			page := "/" + Slug("suite0") + ".html"
			dom, console = dumpDOM(t, bin, base+page, "--dump-dom")
			if console != "" || strings.Contains(dom, `id="errors"`) {
				t.Errorf("suite page: console %q, DOM:\n%.2000s", console, dom)
			}
			if n := strings.Count(dom, `class="line"`); n != 8 {
				t.Errorf("suite page: %d charts drawn, want 8", n)
			}
			if !strings.Contains(dom, `class="regression"`) || !strings.Contains(dom, `href="https://github.com/o/r/commit/`) {
				t.Error("suite page: no change point marked or no commit link")
			}
			checkAxes(t, dom, 8)
			dom, console = dumpDOM(t, bin, base+page+"?q=kernel3", "--dump-dom")
			if console != "" || !strings.Contains(dom, `<span id="count">1 of 8 series</span>`) {
				t.Errorf("filtered page: console %q, count %q", console, regexp.MustCompile(`<span id="count">[^<]*</span>`).FindString(dom))
			}
			if hidden := strings.Count(dom, " hidden=\"\""); hidden != 7 {
				t.Errorf("filtered page: %d cards hidden, want 7", hidden)
			}
		})
	}
}

var (
	svgRe   = regexp.MustCompile(`(?s)<svg.*?</svg>`)
	ytickRe = regexp.MustCompile(`<text class="ytick"[^>]*>([^<]*)</text>`)
	xtickRe = regexp.MustCompile(`<text class="xtick"[^>]*>([^<]*)</text>`)
)

// checkAxes checks the charts of a suite page's DOM: each has at least
// three y ticks, in plain numbers with a unit (no e-notation), and x
// labels that never repeat (issue 30: only min and max, "6.773e+4", one
// date four times).
func checkAxes(t *testing.T, dom string, charts int) {
	t.Helper()
	svgs := svgRe.FindAllString(dom, -1)
	if len(svgs) != charts {
		t.Errorf("%d charts, want %d", len(svgs), charts)
	}
	for k, svg := range svgs {
		ys := ytickRe.FindAllStringSubmatch(svg, -1)
		if len(ys) < 3 {
			t.Errorf("chart %d: %d y ticks, want at least 3", k, len(ys))
		}
		for _, y := range ys {
			if !regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)? \S+$`).MatchString(y[1]) {
				t.Errorf("chart %d: y tick %q is not a plain number and unit", k, y[1])
			}
		}
		seen := map[string]bool{}
		xs := xtickRe.FindAllStringSubmatch(svg, -1)
		if len(xs) < 2 {
			t.Errorf("chart %d: %d x labels", k, len(xs))
		}
		for _, x := range xs {
			if seen[x[1]] {
				t.Errorf("chart %d: x label %q repeated", k, x[1])
			}
			seen[x[1]] = true
		}
	}
}

// TestBrowserUnits opens from disk a suite of nanosecond values near
// 67,730 ns that move ±0.4% within a day, then 20% slower: its axis reads
// in µs ("70 µs"), its step "67.73 µs → 81.28 µs", and its x labels carry
// the time of day.
func TestBrowserUnits(t *testing.T) {
	bin := chromiumtest.Find(t)
	at := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	se := model.TrendSeries{Suite: "ns", Name: "gemm", Unit: "ns", Better: model.Lower}
	for r := range 60 {
		m := 67730 * (1 + 0.004*float64(r%3-1))
		if r >= 40 {
			m *= 1.2
		}
		se.Points = append(se.Points, model.TrendPoint{Median: m, CV: 0.001, N: 100, Run: model.RunRef{
			ID: fmt.Sprintf("run-%02d", r), Commit: fmt.Sprintf("%040x", r+1), Branch: "main", Testbed: "h100",
			StartedAt: at.Add(time.Duration(r) * 10 * time.Minute)}})
	}
	files, err := Build([]model.TrendSeries{se}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	dom, console := dumpDOM(t, bin, "file://"+dir+"/"+Slug("ns")+".html", "--dump-dom")
	if console != "" || strings.Contains(dom, `id="errors"`) {
		t.Fatalf("console %q, DOM:\n%.2000s", console, dom)
	}
	checkAxes(t, dom, 1)
	for _, y := range ytickRe.FindAllStringSubmatch(dom, -1) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(y[1], " µs"), 64)
		if err != nil || v < 60 || v > 90 {
			t.Errorf("y tick %q, want 60 to 90 µs", y[1])
		}
	}
	if !strings.Contains(dom, "(67.73 µs → 81.28 µs)") {
		t.Errorf("the step does not read in µs: %s", regexp.MustCompile(`(?s)<ul class="steps">.*?</ul>`).FindString(dom))
	}
	if xs := xtickRe.FindAllStringSubmatch(dom, -1); len(xs) == 0 || xs[0][1] != "03-01 08:00" {
		t.Errorf("x labels %v, want the time of day from 03-01 08:00", xs)
	}
	if strings.Contains(dom, "e+") {
		t.Error("the page shows e-notation")
	}
}
