package site

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/chromiumtest"
	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
)

// resetSite is one benchmark of 30 hourly runs, 20% slower from run 20,
// reset by hand before run 10 and, accepted on a pull request, at the
// merge's run 20; a reset of another repository and one of another
// benchmark are not drawn.
func resetSite(t *testing.T) (map[string][]byte, Options) {
	t.Helper()
	at := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	se := model.TrendSeries{Suite: "kernels", Name: "gemm/n=4096", Unit: "us", Better: model.Lower}
	for r := range 30 {
		m := 100 * (1 + 0.005*float64(r%3-1))
		if r >= 20 {
			m *= 1.2
		}
		se.Points = append(se.Points, model.TrendPoint{Median: m, N: 20, Run: model.RunRef{ID: fmt.Sprintf("run-%02d", r),
			Commit: fmt.Sprintf("%040x", r+1), Branch: "main", Testbed: "h100", StartedAt: at.Add(time.Duration(r) * time.Hour)}})
	}
	o := DefaultOptions()
	o.Repo = "o/r"
	o.Resets = []model.Reset{
		{Repo: "o/r", Glob: "kernels/*", At: at.Add(9*time.Hour + 30*time.Minute), Who: "hubot", Reason: "new driver <b>570</b>"},
		{Repo: "o/r", Glob: "kernels/gemm", At: at.Add(20 * time.Hour), Who: "octocat", Reason: "accepted on #2 by octocat, merged in 0123456789ab: fp32 accumulation"},
		{Repo: "o/other", Glob: "kernels/*", At: at.Add(5 * time.Hour), Who: "x"},
		{Repo: "o/r", Glob: "io/*", At: at.Add(5 * time.Hour), Who: "x"},
	}
	files, err := Build([]model.TrendSeries{se}, o)
	if err != nil {
		t.Fatal(err)
	}
	return files, o
}

// TestBuildResets: the resets that cover a series are placed before the
// first run started at or after them, with who and why, the merge of an
// accepted regression marked as such (golden testdata/resets.json).
func TestBuildResets(t *testing.T) {
	files, _ := resetSite(t)
	var doc suiteDoc
	if err := json.Unmarshal(files["data/"+Slug("kernels")+".json"], &doc); err != nil || len(doc.Series) != 1 {
		t.Fatalf("%v, %d series", err, len(doc.Series))
	}
	got, _ := json.MarshalIndent(doc.Series[0].Resets, "", "  ")
	golden.Check(t, "resets.json", append(got, '\n'))
	if rs := doc.Series[0].Resets; len(rs) != 2 || rs[0].Index != 10 || rs[1].Index != 20 || rs[0].Accepted || !rs[1].Accepted {
		t.Errorf("resets %+v, want before runs 10 and 20, the second an accepted change", rs)
	}
}

// TestBrowserResets draws the resets in a real headless Chromium: two
// dashed lines titled with who and why, and a list under the chart whose
// hostile text stays text.
func TestBrowserResets(t *testing.T) {
	bin := chromiumtest.Find(t)
	files, _ := resetSite(t)
	dir := t.TempDir()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	dom, console := dumpDOM(t, bin, "file://"+dir+"/"+Slug("kernels")+".html", "--dump-dom")
	if console != "" || strings.Contains(dom, `id="errors"`) {
		t.Fatalf("console %q, DOM:\n%.2000s", console, dom)
	}
	if n := strings.Count(dom, `<line class="reset"`); n != 2 {
		t.Errorf("%d reset lines drawn, want 2", n)
	}
	list := regexp.MustCompile(`(?s)<ul class="resets">.*?</ul>`).FindString(dom)
	for _, want := range []string{
		"↺ baseline reset 2026-11-20 09:30Z by hubot: new driver &lt;b&gt;570&lt;/b&gt; (earlier runs feed no baseline)",
		"↺ accepted change merged: baseline reset 2026-11-20 20:00Z by octocat: accepted on #2 by octocat",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("the resets list lacks %q:\n%s", want, list)
		}
	}
	if strings.Contains(dom, "<b>570") {
		t.Error("a reset's reason reached the page as HTML")
	}
}
