package site

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// synthetic makes suites × benchmarks series of runs points on two
// testbeds, each with a 20% step at 80% of its runs.
func synthetic(suites, benchmarks, runs int) []model.TrendSeries {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []model.TrendSeries
	for s := range suites {
		for b := range benchmarks {
			se := model.TrendSeries{Suite: fmt.Sprintf("suite%d", s), Name: fmt.Sprintf("kernel%d/n=%d", b, 1<<(b%20)), Unit: "us", Better: model.Lower}
			for r := range runs {
				m := 100 * (1 + 0.01*float64((r*7+b)%5-2)/2)
				if r >= runs*4/5 {
					m *= 1.2
				}
				bed := "h100"
				if b%4 == 3 {
					bed = "h200"
				}
				se.Points = append(se.Points, model.TrendPoint{Median: m, CV: 0.01, N: 100, Run: model.RunRef{
					ID: fmt.Sprintf("run-%05d", r), Commit: fmt.Sprintf("%040x", r+1), Branch: "main", Testbed: bed,
					StartedAt: at.Add(time.Duration(r) * time.Hour)}})
			}
			out = append(out, se)
		}
	}
	return out
}

func TestBuild(t *testing.T) {
	o := DefaultOptions()
	o.RepoURL, o.Branch, o.Generated = "https://github.com/o/r", "main", time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	in := synthetic(2, 8, 1000)
	in = append(in, model.TrendSeries{Suite: `evil"<script>`, Name: `</script><img src=x onerror=alert(1)>`, Unit: "us", Better: model.Lower,
		Points: in[0].Points[:10]})
	files, err := Build(in, o)
	if err != nil {
		t.Fatal(err)
	}
	var idx indexDoc
	if err := json.Unmarshal(files["data/index.json"], &idx); err != nil || len(idx.Suites) != 3 {
		t.Fatalf("index: %v, %+v", err, idx)
	}
	page := map[string]string{}
	for _, s := range idx.Suites {
		page[s.Name] = s.Page
	}
	for _, want := range []string{"index.html", "app.js", "style.css", page["suite0"]} {
		if len(files[want]) == 0 {
			t.Errorf("no %s", want)
		}
	}
	evil := page[`evil"<script>`]
	if !strings.HasPrefix(evil, "evil-script-") || strings.Contains(string(files[evil]), `"<script>`) || !strings.Contains(string(files[evil]), "evil&#34;&lt;script&gt;") {
		t.Errorf("hostile suite page %s:\n%s", evil, files[evil])
	}
	var doc suiteDoc
	if err := json.Unmarshal(files["data/"+strings.TrimSuffix(page["suite0"], ".html")+".json"], &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Series) != 8 || len(doc.Testbeds) != 2 || len(doc.Runs) > 1000 || len(doc.Runs) < o.MaxPoints {
		t.Fatalf("suite0: %d series, testbeds %v, %d runs referenced", len(doc.Series), doc.Testbeds, len(doc.Runs))
	}
	for _, s := range doc.Series {
		if len(s.Points) > o.MaxPoints+2 || s.N != 1000 {
			t.Errorf("%s: %d points drawn of %d", s.Name, len(s.Points), s.N)
		}
		if len(s.Steps) != 1 || s.Steps[0].Index != 800 || doc.Runs[s.Steps[0].Run][2] != "run-00800" {
			t.Errorf("%s: steps %+v, want one at run 800", s.Name, s.Steps)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, prefix string }{{"elementwise", "elementwise-"}, {"A B/c", "a-b-c-"}, {"../..", "suite-"}} {
		if got := Slug(c.in); !strings.HasPrefix(got, c.prefix) || strings.ContainsAny(got, "/. ") {
			t.Errorf("Slug(%q) = %q", c.in, got)
		}
	}
	if Slug("a b") == Slug("a-b") {
		t.Error("two suites share a slug")
	}
}

// TestSlugsNeverShared: two suite names whose 32-bit hashes collided
// ("gemm*?^#" and "gemm[?:&", found in under a second) get pages of their
// own, and a suite without letters gets a page name that does not start
// with "-" (issue 28, item 10: one page overwrote the other).
func TestSlugsNeverShared(t *testing.T) {
	pts := synthetic(1, 1, 5)[0].Points
	var in []model.TrendSeries
	for _, suite := range []string{"gemm*?^#", "gemm[?:&", "../.."} {
		in = append(in, model.TrendSeries{Suite: suite, Name: "n", Unit: "us", Better: model.Lower, Points: pts})
	}
	files, err := Build(in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var idx indexDoc
	if err := json.Unmarshal(files["data/index.json"], &idx); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, s := range idx.Suites {
		if other, dup := pages[s.Page]; dup {
			t.Errorf("%q and %q share the page %s", other, s.Name, s.Page)
		}
		if strings.HasPrefix(s.Page, "-") {
			t.Errorf("%q has the page %s", s.Name, s.Page)
		}
		pages[s.Page] = s.Name
	}
}

// TestBuildNoBidi: names with bidirectional controls reach the dashboard's
// data and pages without them, so none shows reversed (issue 28, item 13).
func TestBuildNoBidi(t *testing.T) {
	pts := synthetic(1, 1, 5)[0].Points
	for i := range pts {
		pts[i].Run.Testbed = "h100\u202e"
	}
	files, err := Build([]model.TrendSeries{{Suite: "k\u2066ernels", Name: "gemm\u202e4096", Unit: "us", Better: model.Lower, Points: pts}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		var v any
		text := string(data)
		if strings.HasSuffix(name, ".json") && json.Unmarshal(data, &v) == nil {
			b, _ := json.Marshal(v) // \u escapes decoded and written again
			text = string(b)
		}
		if strings.ContainsAny(text, "\u202e\u2066") || strings.Contains(text, `\u202e`) || strings.Contains(text, `\u2066`) {
			t.Errorf("%s keeps a bidirectional control", name)
		}
	}
}
