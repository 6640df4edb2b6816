package spool

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func TestSpools(t *testing.T) {
	down := &model.InfraError{Op: "connect to database", Err: errors.New("connection refused")}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"unreachable", down, true},
		{"unreachable, wrapped", fmt.Errorf("r1.json: %w", down), true},
		{"bad input", &model.InputError{Msg: "bad"}, false},
		{"bad input the database found", &model.InfraError{Op: "record", Err: &model.InputError{Msg: "rejected"}}, false},
		{"conflict", &model.ConflictError{RunID: "r1"}, false},
		// A schema to migrate (db.SchemaError) is no InfraError: no retry
		// fixes it, so it is not spooled.
		{"schema to migrate", errors.New("the database has no perfgate schema: run 'perfgate migrate --db URL' first"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Spools(tt.err); got != tt.want {
				t.Errorf("Spools(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestName(t *testing.T) {
	tests := []struct{ id, prefix string }{
		{"r1", "r1-"},
		{"../../etc/passwd", "___.._etc_passwd-"},
		{".hidden", "_hidden-"},
		{"..", "__-"},
		{strings.Repeat("x", 100), strings.Repeat("x", 64) + "-"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got := Name(tt.id)
			if !strings.HasPrefix(got, tt.prefix) || !strings.HasSuffix(got, ".json") || strings.ContainsRune(got, '/') {
				t.Errorf("Name(%q) = %q, want %q… .json without a slash", tt.id, got, tt.prefix)
			}
		})
	}
	if Name("a/b") == Name("a_b") {
		t.Errorf("distinct ids a/b and a_b share the file %s", Name("a/b"))
	}
}

func TestWriteFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	if files, err := Files(dir); err != nil || len(files) != 0 {
		t.Fatalf("Files of a missing directory = %v, %v; want none", files, err)
	}
	run := func(id string) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
			Event: model.EventPush, Testbed: "tb", StartedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
			Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}}}}
	}
	written, err := Write(dir, []*model.Results{run("b"), run("a"), run("b")})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".x.json.tmp1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Files(dir)
	if err != nil || len(written) != 3 || len(files) != 2 || files[0] != filepath.Join(dir, Name("a")) {
		t.Fatalf("wrote %v, Files = %v, %v; want a's file first, b once, no temporary file", written, files, err)
	}
	if r, err := resultsjson.Load(files[1]); err != nil || r.Run.ID != "b" {
		t.Errorf("spooled file reads back as %v, %v; want run b", r, err)
	}
}

// TestWriteSources checks that a run read from its file (resultsjson.Source) is
// spooled as the run loaded whole is: the same bytes.
func TestWriteSources(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "x", Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
		Event: model.EventPush, Testbed: "tb", StartedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}}}}
	if err := resultsjson.WriteFile(in, r); err != nil {
		t.Fatal(err)
	}
	src, err := resultsjson.OpenSource(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Write(filepath.Join(dir, "loaded"), []*model.Results{r})
	if err != nil {
		t.Fatal(err)
	}
	got, err := WriteSources(filepath.Join(dir, "streamed"), []*resultsjson.Source{src})
	if err != nil || len(got) != 1 {
		t.Fatalf("WriteSources = %v, %v", got, err)
	}
	a, _ := os.ReadFile(want[0])
	b, _ := os.ReadFile(got[0])
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("spooled from a source:\n%s\nwant\n%s", b, a)
	}
}
