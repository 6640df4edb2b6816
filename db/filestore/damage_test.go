package filestore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// warnings collects a store's warnings.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) warn(msg string) { w.mu.Lock(); w.msgs = append(w.msgs, msg); w.mu.Unlock() }

func (w *warnings) text() string { w.mu.Lock(); defer w.mu.Unlock(); return strings.Join(w.msgs, "\n") }

func openWarn(t *testing.T, dir string) (*Store, *warnings) {
	t.Helper()
	w := &warnings{}
	s, err := OpenWith(dir, Options{Warn: w.warn})
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// twoBenchRun is run with a second benchmark, so that a store has two
// series files.
func twoBenchRun(id string, hour int) *model.Results {
	r := run(id, hour)
	r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "memory", Name: "set/n=1024", Unit: "ns", Better: model.Lower,
		Samples: []float64{20, 21, 22 + float64(hour)}})
	return r
}

// points returns the number of points of each series of the store.
func points(t *testing.T, s *Store) map[string]int {
	t.Helper()
	series, err := s.Trend(context.Background(), model.TrendQuery{})
	if err != nil {
		t.Fatalf("Trend: %v", err)
	}
	out := map[string]int{}
	for _, se := range series {
		out[se.Name] = len(se.Points)
	}
	return out
}

// TestDerivedFilesRebuilt damages the catalog and series files as a person
// or a disk can (issue 28, item 1: following the old advice, "delete the
// series directory to rebuild it", made every trend empty and every later
// record fail with exit 3 after writing its run file; a lost series file
// cut its benchmark's trend to the points recorded after). The store
// rebuilds them from the run files itself: the trend keeps every point,
// a later record succeeds and appends to it, and a warning says what was
// rebuilt.
func TestDerivedFilesRebuilt(t *testing.T) {
	seriesFile := func(s *Store) string {
		return s.seriesPath(model.Key{Suite: "memory", Name: "copy/n=1024"})
	}
	cases := []struct {
		name   string
		damage func(t *testing.T, s *Store)
	}{
		{"series directory deleted", func(t *testing.T, s *Store) { os.RemoveAll(filepath.Join(s.dir, "series")) }},
		{"one series file deleted", func(t *testing.T, s *Store) { os.Remove(seriesFile(s)) }},
		{"garbage line in a series file", func(t *testing.T, s *Store) {
			f, _ := os.OpenFile(seriesFile(s), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("garbage\n")
			f.Close()
		}},
		{"catalog deleted", func(t *testing.T, s *Store) { os.Remove(s.catalogPath()) }},
		{"catalog and series deleted", func(t *testing.T, s *Store) {
			os.Remove(s.catalogPath())
			os.RemoveAll(filepath.Join(s.dir, "series"))
		}},
		{"garbage catalog", func(t *testing.T, s *Store) { os.WriteFile(s.catalogPath(), []byte("x\ty\tz\n"), 0o644) }},
	}
	for _, c := range cases {
		for _, first := range []string{"trend", "record"} {
			t.Run(c.name+", then "+first, func(t *testing.T) {
				s, w := openWarn(t, t.TempDir())
				for h := range 9 {
					mustRecord(t, s, twoBenchRun(fmt.Sprintf("r%d", h), h))
				}
				want := map[string]int{"copy/n=1024": 9, "set/n=1024": 9}
				c.damage(t, s)
				if first == "trend" {
					if got := points(t, s); fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("trend after damage: %v points, want %v", got, want)
					}
				}
				if _, err := s.Record(context.Background(), twoBenchRun("r9", 9)); err != nil {
					t.Fatalf("record after damage: %v", err)
				}
				want = map[string]int{"copy/n=1024": 10, "set/n=1024": 10}
				if got := points(t, s); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("trend after a record: %v points, want %v", got, want)
				}
				if !strings.Contains(w.text(), "rebuilding the catalog and series files from the run files") {
					t.Errorf("no warning of the rebuild; warnings:\n%s", w.text())
				}
				// Rebuilt for good: the next store of the directory has nothing to say.
				s2, w2 := openWarn(t, s.dir)
				if got := points(t, s2); fmt.Sprint(got) != fmt.Sprint(want) || w2.text() != "" {
					t.Errorf("a second trend: %v points, warnings %q", got, w2.text())
				}
			})
		}
	}
}

// TestTrendFromRunFiles: a process that may not rebuild damaged series
// files reads every run file instead, and gets the same series.
func TestTrendFromRunFiles(t *testing.T) {
	s, _ := openWarn(t, t.TempDir())
	for h := range 4 {
		mustRecord(t, s, twoBenchRun(fmt.Sprintf("r%d", h), h))
	}
	ctx := context.Background()
	a, err := s.trend(ctx, model.TrendQuery{}, false)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(s.dir, "series"))
	b, err := s.trend(ctx, model.TrendQuery{}, true)
	if err != nil || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("from the run files: %v, %v; want %v", b, err, a)
	}
}

// TestDamagedRunSkipped truncates a stored run file (issue 28, item 7: every
// check then exited 2, "invalid JSON: unexpected EOF"). The baseline skips
// it with a warning naming the file and the repair, and comes from the
// other runs; trends skip it too; a writer moves it to damaged/, and
// recording the run again restores it.
func TestDamagedRunSkipped(t *testing.T) {
	for _, how := range []string{"truncated", "overwritten in place"} {
		t.Run(how, func(t *testing.T) {
			s, w := openWarn(t, t.TempDir())
			mustRecord(t, s, run("r0", 0), run("r1", 1), run("r2", 2), run("r3", 3))
			bad := s.runPath("r3.json")
			data, _ := os.ReadFile(bad)
			fi, _ := os.Stat(bad)
			if how == "truncated" {
				os.WriteFile(bad, data[:len(data)/2], 0o644)
			} else { // same size and time: only decoding finds it
				os.WriteFile(bad, []byte(strings.Repeat(" ", len(data))), 0o644)
				os.Chtimes(bad, fi.ModTime(), fi.ModTime())
			}
			if got := usedIDs(t, s, 2); fmt.Sprint(got) != "[r2 r1]" {
				t.Errorf("baseline = %v, want [r2 r1]", got)
			}
			if !strings.Contains(w.text(), bad+" is damaged and was skipped") || !strings.Contains(w.text(), "record the run's results file again") {
				t.Errorf("warnings do not name %s and the repair:\n%s", bad, w.text())
			}
			if got := points(t, s); got["copy/n=1024"] < 3 {
				t.Errorf("trend = %v, want the 3 undamaged runs", got)
			}
			// A writer moves it aside, once.
			mustRecord(t, s, run("r4", 4))
			moved := filepath.Join(s.dir, "damaged", "r3.json")
			if _, err := os.Stat(moved); how == "truncated" && err != nil {
				t.Errorf("the damaged file was not moved to %s: %v\n%s", moved, err, w.text())
			}
			// Recording the run again restores it.
			mustRecord(t, s, run("r3", 3))
			if got := usedIDs(t, s, 5); !slices.Contains(got, "r3") || len(got) != 5 {
				t.Errorf("after recording r3 again the baseline is %v", got)
			}
		})
	}
}

// TestDamagedShardReportSkipped: a truncated shard report file is skipped
// with a warning naming it (issue 28, item 7: Shards failed, and with it
// the comment and status of the whole set).
func TestDamagedShardReportSkipped(t *testing.T) {
	s, w := openWarn(t, t.TempDir())
	ctx := context.Background()
	for i := range 2 {
		if err := s.SaveShard(ctx, model.ShardReport{Set: "o/r#1@abc job", Shard: i, Shards: 2, Data: []byte("report")}); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(s.shardDir("o/r#1@abc job"), "1.json")
	data, _ := os.ReadFile(bad)
	os.WriteFile(bad, data[:len(data)/2], 0o644)
	got, err := s.Shards(ctx, "o/r#1@abc job")
	if err != nil || len(got) != 1 || got[0].Shard != 0 {
		t.Errorf("Shards = %+v, %v; want shard 0's report", got, err)
	}
	if !strings.Contains(w.text(), bad+" is not a readable shard report") {
		t.Errorf("warnings do not name %s:\n%s", bad, w.text())
	}
}
