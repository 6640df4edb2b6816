package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestCode(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"nil", nil, ExitOK, ""},
		{"help", ErrHelp, ExitOK, ""},
		{"regression, already reported", ErrRegression, ExitRegression, ""},
		{"usage", UsageErrorf("--rounds: must be positive, got %d", 0), ExitBadInput, "perfgate: --rounds: must be positive, got 0\n"},
		{"input error", &model.InputError{File: "r.json", Msg: "invalid JSON"}, ExitBadInput, "r.json"},
		{"conflict", fmt.Errorf("record: %w", &model.ConflictError{RunID: "r1"}), ExitBadInput, "r1"},
		{"infrastructure", errors.New("connect: refused"), ExitInfra, "perfgate: connect: refused\n"},
		{"chosen code", &ExitError{Code: ExitInfra, Err: errors.New("gone")}, ExitInfra, "perfgate: gone\n"},
		{"canceled", context.Canceled, ExitInfra, "canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := Code(tt.err, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "" && stderr.Len() > 0) {
				t.Errorf("Code(%v) = %d, stderr %q; want %d, stderr %q", tt.err, code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}

func TestCommandsRun(t *testing.T) {
	cs := Commands{}
	var got []string
	cs.Register(&Command{Name: "ingest", Run: func(_ context.Context, args []string, e *Env) error {
		got = args
		fs := NewFlagSet(e, "ingest", "FILE...")
		fs.String("format", "", "input `format`")
		return ParseFlags(fs, args)
	}})
	cs.Register(&Command{Name: "version", Run: func(context.Context, []string, *Env) error { return nil }})
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string // what help asked for prints: on standard output
		stderr   string
		wantArgs []string
	}{
		{"no arguments", nil, ExitBadInput, "", "USAGE", nil},
		{"help", []string{"help"}, ExitOK, "USAGE", "", nil},
		{"--help", []string{"--help"}, ExitOK, "USAGE", "", nil},
		{"help NAME", []string{"help", "ingest"}, ExitOK, "usage: perfgate ingest FILE...", "", []string{"-help"}},
		{"NAME --help", []string{"ingest", "--help"}, ExitOK, "usage: perfgate ingest FILE...\n\nflags:\n  --format format", "", []string{"--help"}},
		{"a command", []string{"ingest", "a.txt", "--format", "gotest"}, ExitOK, "", "", []string{"a.txt", "--format", "gotest"}},
		{"a flag typo", []string{"ingest", "--fromat", "gotest"}, ExitBadInput, "", "did you mean --format?", nil},
		{"--version", []string{"--version"}, ExitOK, "", "", nil},
		{"unknown", []string{"ingset"}, ExitBadInput, "", `unknown command "ingset" (did you mean "ingest"?)`, nil},
		{"help of an unknown command", []string{"help", "ingset"}, ExitBadInput, "", `unknown command "ingset"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			var stdout, stderr bytes.Buffer
			e := &Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
			code := cs.Run(context.Background(), tt.args, e, "USAGE")
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || !strings.Contains(stdout.String(), tt.stdout) ||
				(tt.stdout == "") != (stdout.Len() == 0) || (tt.stderr == "") != (stderr.Len() == 0) {
				t.Errorf("Run(%q) = %d, stdout %q, stderr %q; want %d, stdout containing %q, stderr containing %q",
					tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderr)
			}
			if tt.wantArgs != nil && strings.Join(got, " ") != strings.Join(tt.wantArgs, " ") {
				t.Errorf("Run(%q): the command got %q, want %q", tt.args, got, tt.wantArgs)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("registering ingest twice did not panic")
		}
	}()
	cs.Register(&Command{Name: "ingest"})
}

func TestDocUsage(t *testing.T) {
	doc := "/*\nUsage:\n\n\tperfgate <command>\n*/\npackage main\n"
	if got, want := DocUsage(doc), "Usage:\n\n\tperfgate <command>\n"; got != want {
		t.Errorf("DocUsage = %q, want %q", got, want)
	}
}

func TestExplicitSettings(t *testing.T) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.String("threshold", "5", "")
	fs.String("alpha", "0.05", "")
	fs.String("history", "", "")
	if err := fs.Parse([]string{"--threshold", "10"}); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PERFGATE_ALPHA": "0.01", "PERFGATE_HISTORY": " "}
	e := &Env{Getenv: func(k string) string { return vars[k] }}
	got := ExplicitSettings(fs, e, map[string]string{"alpha": "PERFGATE_ALPHA", "history": "PERFGATE_HISTORY"})
	if !got["threshold"] || !got["alpha"] || got["history"] || len(got) != 2 {
		t.Errorf("ExplicitSettings = %v, want threshold (a flag) and alpha (its variable), not history (blank)", got)
	}
}

func TestFilesAndChoice(t *testing.T) {
	var f Files
	if err := f.Set("a.json"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set(""); err == nil {
		t.Error(`Files.Set("") = nil, want a usage error`)
	}
	if f.String() != "a.json" {
		t.Errorf("Files = %q, want a.json", f.String())
	}
	if err := CheckChoice("--format", "markdown", []string{"text", "markdown"}); err != nil {
		t.Errorf("CheckChoice(markdown) = %v", err)
	}
	var xe *ExitError
	if err := CheckChoice("--format", "md", []string{"text", "markdown"}); !errors.As(err, &xe) || xe.Code != ExitBadInput || !strings.Contains(err.Error(), "--format: must be one of text, markdown") {
		t.Errorf("CheckChoice(md) = %v, want a usage error naming --format", err)
	}
}

func TestGetenvOr(t *testing.T) {
	e := &Env{Getenv: func(k string) string { return map[string]string{"A": "x"}[k] }}
	if e.GetenvOr("A", "d") != "x" || e.GetenvOr("B", "d") != "d" {
		t.Errorf("GetenvOr: got %q, %q; want x, d", e.GetenvOr("A", "d"), e.GetenvOr("B", "d"))
	}
}

func TestWriteFiles(t *testing.T) {
	var stderr strings.Builder
	e := &Env{Stdout: io.Discard, Stderr: &stderr}
	dir := filepath.Join(t.TempDir(), "new")
	if err := WriteFiles(e, dir)(map[string][]byte{"a.svg": []byte("A"), "b.svg": []byte("B")}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.svg")); string(b) != "B" || !strings.Contains(stderr.String(), "wrote 2 files to "+dir) {
		t.Errorf("b.svg %q, stderr %q", b, stderr.String())
	}
	for _, bad := range []string{"../x.svg", "d/x.svg", ".."} {
		if err := WriteFiles(e, dir)(map[string][]byte{bad: nil}, nil); err == nil {
			t.Errorf("%q was written", bad)
		}
	}
	boom := errors.New("boom")
	if err := WriteFiles(e, filepath.Join(dir, "never"))(nil, boom); err != boom {
		t.Errorf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "never")); err == nil {
		t.Error("an error still created the directory")
	}
}
