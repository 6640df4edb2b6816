package resultsjson

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// sourceDocs are streamDocs and documents that exercise what a Source
// reads differently from Load: benchmarks already in canonical order (hashed
// in one pass) or not, the run after the benchmarks, keys whose strings
// collide (the canonical sort keeps their order), and benchmarks larger
// than the scanner's window.
func sourceDocs(t *testing.T) map[string][]byte {
	docs := streamDocs(t)
	fixture := mustRead("testdata/valid.json")
	docs["run last"] = []byte(`{"schema":"perfgate.results/v1","benchmarks":[{"suite":"b","name":"x","unit":"ns","better":"lower","samples":[2,1]},` +
		`{"suite":"a","name":"y","unit":"ns","better":"lower","samples":[1]}],` + fixture[strings.Index(fixture, `"run"`):strings.Index(fixture, `"benchmarks"`)-4] + "}")
	docs["colliding keys"] = []byte(`{"schema":"perfgate.results/v1",` + fixture[strings.Index(fixture, `"run"`):strings.Index(fixture, `"benchmarks"`)] +
		`"benchmarks":[{"suite":"a/b","name":"c","unit":"ns","better":"lower","samples":[3]},{"suite":"a","name":"b/c","unit":"ns","better":"lower","samples":[4]},` +
		`{"suite":"a","name":"a","unit":"ns","better":"lower","samples":[5],"params":{},"metrics":{},"info":{}}]}`)
	docs["synthetic"] = synthetic(300, 50)
	var sorted strings.Builder
	sorted.WriteString(`{"schema":"perfgate.results/v1",` + fixture[strings.Index(fixture, `"run"`):strings.Index(fixture, `"benchmarks"`)] + `"benchmarks":[`)
	for i := range 40 {
		fmt.Fprintf(&sorted, "%s\n {\"suite\":\"s\",\"name\":\"b%03d\",\"unit\":\"ms\",\"better\":\"higher\",\"samples\":[", map[bool]string{true: ","}[i > 0], i)
		for j := range 1 + i*i*10 { // up to 15,211 samples: past the 64 KiB window
			fmt.Fprintf(&sorted, "%s%d.25", map[bool]string{true: ","}[j > 0], i+j)
		}
		sorted.WriteString("]}")
	}
	sorted.WriteString("]}")
	docs["sorted, wide"] = []byte(sorted.String())
	return docs
}

// TestSourceMatchesLoad checks that a Source read from a file, and one of
// the run Load returns, give what the loaded run gives: the same error
// (message and path), or the same run, heads, benchmarks (Each), JSON
// (Source.WriteJSON and WriteJSON) and content hash.
func TestSourceMatchesLoad(t *testing.T) {
	dir := t.TempDir()
	checked := map[bool]bool{} // sorted, for file sources
	for name, data := range sourceDocs(t) {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, dir, "run.json", data)
			want, wantErr := Load(path)
			src, err := OpenSource(path)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("OpenSource: %v\nLoad: %v", err, wantErr)
			}
			if err != nil {
				return
			}
			if streamed := src.mem == nil; !streamed && slices.Contains([]string{"fixture", "run last", "colliding keys", "synthetic", "sorted, wide"}, name) {
				t.Fatalf("%s was loaded whole, not streamed", name)
			}
			if src.mem == nil {
				checked[src.sorted] = true
			}
			hashed, err := openSource(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if pre := hashed.hash != nil; pre != (hashed.mem == nil && hashed.sorted && name != "run last" && len(want.Benchmarks) > 0) {
				t.Errorf("hashed as the file was checked: %v", pre)
			}
			for sname, s := range map[string]*Source{"file": src, "file, hashed as checked": hashed, "memory": SourceOf(want)} {
				checkSource(t, sname, s, want)
			}
		})
	}
	if !checked[true] || !checked[false] {
		t.Errorf("streamed sources: sorted and unsorted seen %v; want both", checked)
	}
}

func checkSource(t *testing.T, name string, s *Source, want *model.Results) {
	t.Helper()
	if s.Schema != want.Schema || !reflect.DeepEqual(s.Run, want.Run) {
		t.Errorf("%s: schema and run differ from Load's", name)
	}
	var heads []BenchmarkHead
	var got []model.Benchmark
	err := s.Each(func(i int, b *model.Benchmark) error {
		c := *b
		c.Samples = slices.Clone(b.Samples) // reused after fn returns
		if b.Samples != nil && c.Samples == nil {
			c.Samples = []float64{}
		}
		got = append(got, c)
		heads = append(heads, headOf(b))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: Each: %v", name, err)
	}
	if len(want.Benchmarks) > 0 && !reflect.DeepEqual(got, want.Benchmarks) {
		t.Errorf("%s: Each gives other benchmarks than Load", name)
	}
	if len(heads)+len(s.Heads()) > 0 && !reflect.DeepEqual(heads, s.Heads()) {
		t.Errorf("%s: Heads differ from the benchmarks'", name)
	}
	var a, b bytes.Buffer
	if err := WriteJSON(&a, want); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := s.WriteJSON(&b, func(int, *model.Benchmark) error { n++; return nil }); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) || n != len(want.Benchmarks) {
		t.Errorf("%s: WriteJSON = %v, %d benchmarks seen\n%s\nwant\n%s", name, err, n, b.Bytes(), a.Bytes())
	}
	wantSum, err := ContentHash(want)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // computed, then kept
		if sum, err := s.ContentHash(); err != nil || !bytes.Equal(sum, wantSum) {
			t.Errorf("%s: ContentHash = %x, %v; want %x", name, sum, err, wantSum)
		}
	}
	if s.Failed() != want.Failed() {
		t.Errorf("%s: Failed = %v, want %v", name, s.Failed(), want.Failed())
	}
}

// TestOpenAllMatchesLoadAll checks that OpenAll fails exactly as LoadAll
// does, all the problems together, and agrees on which runs are the same.
func TestOpenAllMatchesLoadAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string { return writeFile(t, dir, name, data) }
	valid := mustRead("testdata/valid.json")
	a := write("a.json", []byte(valid))
	compact := write("compact.json", []byte(strings.NewReplacer("\n", "", "  ", "").Replace(valid)))
	other := write("other.json", mutate(t, func(doc map[string]any) { run(doc)["branch"] = "elsewhere" }))
	samples := write("samples.json", []byte(strings.Replace(valid, "3299.0", "3299.5", 1)))
	order := write("order.json", mutate(t, func(doc map[string]any) {
		bs := doc["benchmarks"].([]any)
		bs[0], bs[1] = bs[1], bs[0]
	}))
	escaped := write("escaped.json", []byte(strings.Replace(valid, `"repo"`, `"rep\u006f"`, 1))) // loaded whole
	bad := write("bad.json", []byte("{"))
	for _, files := range [][]string{
		{a}, {a, compact}, {a, escaped}, {a, other}, {a, samples}, {a, order}, {escaped, order},
		{bad, a, other}, {a, filepath.Join(dir, "missing.json")},
	} {
		_, wantErr := LoadAll(files)
		srcs, err := OpenAll(files, true)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("%q: OpenAll: %v\nLoadAll: %v", files, err, wantErr)
		}
		if err == nil && len(srcs) != len(files) {
			t.Errorf("%q: %d sources", files, len(srcs))
		}
	}
}

// TestSourceFileChanged checks that a file changed after OpenSource read it
// is an input error when its benchmarks are read, never a run recorded from
// two versions of the file.
func TestSourceFileChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	valid := mustRead("testdata/valid.json")
	for name, change := range map[string]string{
		"other size":       strings.Replace(valid, "3299.0", "3299.25", 1),
		"same size, later": strings.Replace(valid, "3299.0", "3299.5", 1),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(valid), 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour)
			os.Chtimes(path, old, old)
			s, err := OpenSource(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(change), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := s.Each(func(int, *model.Benchmark) error { return nil }); !model.IsInputError(err) || !strings.Contains(err.Error(), "changed while it was being recorded") {
				t.Errorf("Each = %v; want an input error saying the file changed", err)
			}
			if _, err := s.ContentHash(); !model.IsInputError(err) {
				t.Errorf("ContentHash = %v; want an input error", err)
			}
		})
	}
}
