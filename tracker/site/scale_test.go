package site

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"

	"github.com/perfgate/perfgate/internal/chromiumtest"
)

// sharedRuns makes runs × benchmarks series in one suite that share their
// run references, as a store's answer does, with ±1% noise and a 20% step
// at 95% of the runs.
func sharedRuns(benchmarks, runs int) []model.TrendSeries {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	refs := make([]model.RunRef, runs)
	for r := range refs {
		refs[r] = model.RunRef{ID: fmt.Sprintf("run-%05d", r), Commit: fmt.Sprintf("%040x", r+1), Branch: "main", Testbed: "h100", StartedAt: at.Add(time.Duration(r) * time.Hour)}
	}
	out := make([]model.TrendSeries, benchmarks)
	for b := range out {
		se := model.TrendSeries{Suite: "kernels", Name: fmt.Sprintf("op%03d/n=%d", b, 1<<(b%24)), Unit: "us", Better: model.Lower,
			Points: make([]model.TrendPoint, runs)}
		for r := range runs {
			m := 100 * (1 + 0.01*float64((r*7919+b*31)%21-10)/10)
			if r >= runs*95/100 {
				m *= 1.2
			}
			se.Points[r] = model.TrendPoint{Run: refs[r], Median: m, CV: 0.01, N: 100}
		}
		out[b] = se
	}
	return out
}

// TestScale measures the dashboard at PERFGATE_SITE_SCALE=RUNSxBENCHMARKS
// (e.g. 10000x500): the build time, the size of the suite's data and, with
// a Chromium, the time the suite page takes to draw its first screen. It
// checks the page still works at that size. Without the variable it runs
// at 2000x100.
func TestScale(t *testing.T) {
	runs, benchmarks := 2000, 100
	if v := os.Getenv("PERFGATE_SITE_SCALE"); v != "" {
		if _, err := fmt.Sscanf(v, "%dx%d", &runs, &benchmarks); err != nil {
			t.Fatalf("PERFGATE_SITE_SCALE=%q: want RUNSxBENCHMARKS", v)
		}
	}
	in := sharedRuns(benchmarks, runs)
	start := time.Now()
	files, err := Build(in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	data := files["data/"+Slug("kernels")+".json"]
	t.Logf("%d runs × %d benchmarks: built in %s; suite data %.1f MB", runs, benchmarks, built.Round(time.Millisecond), float64(len(data))/1e6)
	if testing.Short() || os.Getenv("PERFGATE_CHROMIUM") == "" && os.Getenv("PERFGATE_SITE_SCALE") == "" && os.Getenv("PERFGATE_REQUIRE_CHROMIUM") != "1" {
		return
	}
	bin := chromiumtest.Find(t)
	srv := serve(t, files)
	start = time.Now()
	dom, console := dumpDOM(t, bin, srv.URL+"/"+Slug("kernels")+".html", "--dump-dom")
	wall := time.Since(start)
	m := regexp.MustCompile(`data-rendered-ms="(\d+)"`).FindStringSubmatch(dom)
	if console != "" || m == nil {
		t.Fatalf("the page did not render: console %q", console)
	}
	ms, _ := strconv.Atoi(m[1])
	t.Logf("suite page: first screen drawn %d ms after navigation (page clock); Chromium run %s wall", ms, wall.Round(time.Millisecond))
	if want := fmt.Sprintf(`<span id="count">%d of %d series</span>`, benchmarks, benchmarks); !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(dom) {
		t.Errorf("the page lacks %s", want)
	}
}
