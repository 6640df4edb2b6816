package site

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/chromiumtest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// h100History is 160 runs of the elementwise suite drawn from the samples
// of the committed H100 runs (examples/history/main-1.json): each run's
// median is the median of a bootstrap resample (seeded), with a +33% step
// in the add/fp16 benchmarks from run 131 and a −12% excursion in the relu
// ones over runs 57–89, a run every six hours.
func h100History(t *testing.T) []model.TrendSeries {
	t.Helper()
	r, err := resultsjson.Load(filepath.Join("..", "..", "examples", "history", "main-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(30, 160))
	at := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	refs := make([]model.RunRef, 160)
	for i := range refs {
		refs[i] = model.RunRef{ID: "run-" + itoa3(i), Commit: strings.Repeat(string("0123456789abcdef"[i%16]), 8) + strings.Repeat("0", 32),
			Branch: "main", Testbed: "gpu-h100-1", StartedAt: at.Add(time.Duration(i) * 6 * time.Hour)}
	}
	var out []model.TrendSeries
	for _, b := range r.Benchmarks {
		se := model.TrendSeries{Suite: b.Suite, Name: b.Name, Unit: b.Unit, Better: b.Better}
		for i, ref := range refs {
			re := make([]float64, len(b.Samples))
			for k := range re {
				re[k] = b.Samples[rng.IntN(len(b.Samples))]
			}
			slices.Sort(re)
			m := re[len(re)/2]
			switch {
			case strings.HasPrefix(b.Name, "add/dtype=fp16") && i >= 131:
				m *= 1.33
			case strings.HasPrefix(b.Name, "relu/") && i >= 57 && i <= 89:
				m *= 0.88
			}
			se.Points = append(se.Points, model.TrendPoint{Run: ref, Median: m, N: len(re)})
		}
		out = append(out, se)
	}
	return out
}

func itoa3(i int) string {
	return string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}

// TestDashboardScreenshot opens the elementwise suite of h100History from
// disk, filtered to fp16, as docs/img/dashboard.png shows it: the page
// draws, with readable axes. With PERFGATE_SCREENSHOT_DIR set it saves
// dashboard.png there at 1360×1000 (docs/screenshots/README.md).
func TestDashboardScreenshot(t *testing.T) {
	bin := chromiumtest.Find(t)
	o := DefaultOptions()
	o.RepoURL, o.Branch, o.Generated = "https://github.com/perfgate/perfgate", "main", time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	files, err := Build(h100History(t), o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	url := "file://" + dir + "/" + Slug("elementwise") + ".html?q=fp16"
	dom, console := dumpDOM(t, bin, url, "--dump-dom")
	if console != "" || strings.Contains(dom, `id="errors"`) || !strings.Contains(dom, `<span id="count">18 of 36 series</span>`) {
		t.Fatalf("console %q, DOM:\n%.3000s", console, dom)
	}
	if !strings.Contains(dom, "+33") || !strings.Contains(dom, `class="regression"`) {
		t.Error("the add/fp16 step is not shown")
	}
	if out := os.Getenv("PERFGATE_SCREENSHOT_DIR"); out != "" {
		dumpDOM(t, bin, url, "--hide-scrollbars", "--window-size=1360,1000", "--screenshot="+filepath.Join(out, "dashboard.png"))
	}
}
