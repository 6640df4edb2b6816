package site

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
	"github.com/perfgate/perfgate/tracker/units"
)

// Options shape the dashboard.
type Options struct {
	RepoURL   string    // "https://github.com/owner/name": commits link there; "" = no links
	Branch    string    // shown in the header
	Generated time.Time // shown in the header
	// MaxPoints is how many points of a series the page draws (LTTB).
	MaxPoints int
	// StepRuns is how many of a series' latest runs change point detection
	// reads: O(n²), and the page is about the recent past.
	StepRuns int
	Steps    trend.Options
	// Resets are the re-baseline points (perfgate baseline reset, and the
	// merge of an accepted regression) drawn on the charts of the
	// benchmarks they cover, those of repository Repo ("" = any).
	Resets []model.Reset
	Repo   string
}

// DefaultOptions draw 400 points a series and find steps in the latest 300 runs.
func DefaultOptions() Options {
	return Options{MaxPoints: 400, StepRuns: 300, Steps: trend.DefaultOptions()}
}

// index.json and DATA.json are what the pages load.
type indexDoc struct {
	RepoURL   string      `json:"repo_url"`
	Branch    string      `json:"branch"`
	Generated string      `json:"generated"`
	Suites    []suiteLink `json:"suites"`
}

type suiteLink struct {
	Name   string   `json:"name"`
	Page   string   `json:"page"`
	Series int      `json:"series"`
	Runs   int      `json:"runs"`
	Steps  int      `json:"steps"`
	Beds   []string `json:"testbeds"`
}

type suiteDoc struct {
	Suite     string      `json:"suite"`
	RepoURL   string      `json:"repo_url"`
	Branch    string      `json:"branch"`
	Generated string      `json:"generated"`
	Testbeds  []string    `json:"testbeds"`
	Runs      [][]string  `json:"runs"` // [commit, started (RFC 3339), run id]
	Series    []seriesDoc `json:"series"`
}

type seriesDoc struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
	// Scale converts the values to Shown, the unit the chart's axis and
	// labels use (tracker/units: 67730 ns is 67.73 µs).
	Scale   float64      `json:"scale"`
	Shown   string       `json:"shown"`
	Better  model.Better `json:"better"`
	Testbed string       `json:"testbed"`
	N       int          `json:"n"`     // points in all
	Points  [][3]float64 `json:"p"`     // [point index, run index, median], downsampled
	Steps   []stepDoc    `json:"steps"` // newest last
	Resets  []resetDoc   `json:"resets"`
}

// A resetDoc is a re-baseline point on a chart: drawn before point Index
// (the first run started at or after it; N: after the last).
type resetDoc struct {
	Index    int    `json:"i"`
	At       string `json:"at"`
	Who      string `json:"who"`
	Reason   string `json:"reason"`
	Accepted bool   `json:"accepted"` // the merge of a regression accepted on a pull request
}

type stepDoc struct {
	Index  int     `json:"i"`
	Run    int     `json:"run"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Change float64 `json:"change"`
	Kind   string  `json:"kind"`
	P      float64 `json:"p"`
}

// Build returns the dashboard's files, by path: index.html and
// data/index.json; per suite SLUG.html and data/SLUG.json; app.js and
// style.css. Series are split by testbed (one line per testbed).
func Build(series []model.TrendSeries, o Options) (map[string][]byte, error) {
	bySuite := map[string][]model.TrendSeries{}
	var suites []string
	for _, se := range series {
		for _, part := range splitTestbeds(se) {
			if _, ok := bySuite[se.Suite]; !ok {
				suites = append(suites, se.Suite)
			}
			bySuite[se.Suite] = append(bySuite[se.Suite], part)
		}
	}
	slices.Sort(suites)
	files := map[string][]byte{"app.js": appJS, "style.css": styleCSS}
	idx := indexDoc{RepoURL: o.RepoURL, Branch: o.Branch, Generated: o.Generated.UTC().Format(time.RFC3339)}
	pages := map[string]string{} // slug → suite
	for _, s := range suites {
		slug := Slug(s)
		if other, dup := pages[slug]; dup {
			return nil, fmt.Errorf("site: suites %q and %q would share the page %s.html", other, s, slug)
		}
		pages[slug] = s
		doc := buildSuite(s, bySuite[s], o)
		data, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("site: suite %q: %w", s, err)
		}
		files["data/"+slug+".json"] = data
		files[slug+".html"] = page(shown(s), slug, data)
		steps := 0
		for _, se := range doc.Series {
			steps += len(se.Steps)
		}
		idx.Suites = append(idx.Suites, suiteLink{Name: shown(s), Page: slug + ".html", Series: len(doc.Series), Runs: len(doc.Runs), Steps: steps, Beds: doc.Testbeds})
	}
	if idx.Suites == nil {
		idx.Suites = []suiteLink{}
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return nil, err
	}
	files["data/index.json"] = data
	files["index.html"] = page("", "", data)
	return files, nil
}

// buildSuite downsamples the series of one suite and finds their steps.
func buildSuite(suite string, series []model.TrendSeries, o Options) suiteDoc {
	doc := suiteDoc{Suite: shown(suite), RepoURL: o.RepoURL, Branch: o.Branch, Generated: o.Generated.UTC().Format(time.RFC3339)}
	runIdx := map[string]int{}
	run := func(r model.RunRef) int {
		if i, ok := runIdx[r.ID]; ok {
			return i
		}
		runIdx[r.ID] = len(doc.Runs)
		doc.Runs = append(doc.Runs, []string{shown(r.Commit), r.StartedAt.UTC().Format(time.RFC3339), shown(r.ID)})
		return len(doc.Runs) - 1
	}
	steps := parallelSteps(series, o)
	for k, se := range series {
		bed := ""
		if len(se.Points) > 0 {
			bed = shown(se.Points[0].Run.Testbed)
		}
		if !slices.Contains(doc.Testbeds, bed) {
			doc.Testbeds = append(doc.Testbeds, bed)
		}
		sd := seriesDoc{Name: shown(se.Name), Unit: shown(se.Unit), Better: se.Better, Testbed: bed, N: len(se.Points), Steps: []stepDoc{},
			Resets: resetDocs(se, o)}
		x, y := make([]float64, len(se.Points)), make([]float64, len(se.Points))
		for i, p := range se.Points {
			x[i], y[i] = float64(i), p.Median
		}
		sd.Scale, sd.Shown = axisUnit(y, se.Unit)
		keep := Downsample(x, y, o.MaxPoints)
		off := max(0, len(se.Points)-o.StepRuns)
		for _, st := range steps[k] {
			i := off + st.Index
			sd.Steps = append(sd.Steps, stepDoc{Index: i, Run: run(st.Run), Before: st.Before, After: st.After, Change: st.Change, Kind: st.Kind, P: st.P})
			keep = append(keep, i-1, i) // the step shows at its runs
		}
		slices.Sort(keep)
		keep = slices.Compact(slices.DeleteFunc(keep, func(i int) bool { return i < 0 }))
		for _, i := range keep {
			sd.Points = append(sd.Points, [3]float64{float64(i), float64(run(se.Points[i].Run)), se.Points[i].Median})
		}
		doc.Series = append(doc.Series, sd)
	}
	nameSeries(doc.Series, series)
	slices.Sort(doc.Testbeds)
	return doc
}

// resetDocs places the resets that cover the series on its chart.
func resetDocs(se model.TrendSeries, o Options) []resetDoc {
	out := []resetDoc{}
	key := model.Key{Suite: se.Suite, Name: se.Name}.String()
	for _, r := range o.Resets {
		if r.Repo != "" && o.Repo != "" && r.Repo != o.Repo || !model.MatchGlob(r.Glob, key) {
			continue
		}
		i, _ := slices.BinarySearchFunc(se.Points, r.At, func(p model.TrendPoint, at time.Time) int { return p.Run.StartedAt.Compare(at) })
		out = append(out, resetDoc{Index: i, At: r.At.UTC().Format(time.RFC3339), Who: shown(r.Who), Reason: shown(r.Reason),
			Accepted: strings.HasPrefix(r.Reason, "accepted on #")})
	}
	return out
}

// nameSeries tells apart the series of one benchmark on one testbed that a
// unit or metric change split (model.TrendSeries): each card's title gets
// its unit and dates ("BenchmarkParse · cpu-ns/op series since
// 2026-11-21"), where both read the benchmark's name alone.
func nameSeries(docs []seriesDoc, series []model.TrendSeries) {
	type key struct{ name, bed string }
	newest, count := map[key]time.Time{}, map[key]int{}
	for i, sd := range docs {
		k, pts := key{sd.Name, sd.Testbed}, series[i].Points
		count[k]++
		if len(pts) > 0 && pts[len(pts)-1].Run.StartedAt.After(newest[k]) {
			newest[k] = pts[len(pts)-1].Run.StartedAt
		}
	}
	day := func(t time.Time) string { return t.UTC().Format(time.DateOnly) }
	for i := range docs {
		k, pts := key{docs[i].Name, docs[i].Testbed}, series[i].Points
		if count[k] < 2 || len(pts) == 0 {
			continue
		}
		first, last := pts[0].Run.StartedAt, pts[len(pts)-1].Run.StartedAt
		span := "since " + day(first)
		if last.Before(newest[k]) {
			span = day(first) + " to " + day(last)
		}
		docs[i].Name += " · " + docs[i].Unit + " series " + span
	}
}

// axisUnit is the unit a series' chart shows, chosen for its median value,
// and the factor to it: one unit for the whole axis.
func axisUnit(y []float64, unit string) (float64, string) {
	if len(y) == 0 {
		return 1, shown(unit)
	}
	mid := slices.Clone(y)
	slices.Sort(mid)
	f, u := units.Scale(mid[len(mid)/2], unit)
	return f, shown(u)
}

// parallelSteps finds the steps of each series' latest o.StepRuns runs,
// on every CPU: it is most of the build's time.
func parallelSteps(series []model.TrendSeries, o Options) [][]trend.Step {
	out := make([][]trend.Step, len(series))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				se := series[k]
				se.Points = se.Points[max(0, len(se.Points)-o.StepRuns):]
				out[k] = trend.Steps(se, o.Steps)
			}
		}()
	}
	for k := range series {
		next <- k
	}
	close(next)
	wg.Wait()
	return out
}

// splitTestbeds returns a series per testbed, in order of first run.
func splitTestbeds(se model.TrendSeries) []model.TrendSeries {
	if !slices.ContainsFunc(se.Points, func(p model.TrendPoint) bool { return p.Run.Testbed != se.Points[0].Run.Testbed }) {
		return []model.TrendSeries{se} // one testbed: no copy
	}
	var out []model.TrendSeries
	at := map[string]int{}
	for _, p := range se.Points {
		i, ok := at[p.Run.Testbed]
		if !ok {
			i = len(out)
			at[p.Run.Testbed] = i
			out = append(out, model.TrendSeries{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better})
		}
		out[i].Points = append(out[i].Points, p)
	}
	return out
}

// shown is text from the results as the dashboard shows it: without the
// bidirectional controls that would display it reversed (the pages set
// every text with textContent, which keeps them). Links to a series'
// filter (action's notices) pass its name through it too.
func shown(s string) string { return safetext.NoBidi(s) }

// Slug is the file name of a suite's page: its letters and digits ("suite"
// when it has none, so that no name starts with "-"), and 128 bits of a
// hash of the name, so that no two suites share a page: 32 bits let two
// be found in under a second, and one page overwrote the other.
func Slug(suite string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(suite) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
		if b.Len() >= 40 {
			break
		}
	}
	h := sha256.Sum256([]byte(suite))
	return cmp.Or(strings.Trim(b.String(), "-"), "suite") + "-" + hex.EncodeToString(h[:16])
}
