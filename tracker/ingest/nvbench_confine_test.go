package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestNVBenchSampleFilesConfined points an nvbench --jsonbin summary at a
// file outside the JSON's directory, by "..", by an absolute path and by a
// symbolic link: each is refused as bad input, never read as samples
// (issue 10, item 11). A file inside the directory, named either way, is
// read.
func TestNVBenchSampleFilesConfined(t *testing.T) {
	src, err := os.ReadFile("testdata/nvbench/with_bin.json")
	if err != nil {
		t.Fatal(err)
	}
	bin0, err := os.ReadFile("testdata/nvbench/with_bin.json-bin/0.bin")
	if err != nil {
		t.Fatal(err)
	}
	bin1, err := os.ReadFile("testdata/nvbench/with_bin.json-bin/1.bin")
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	in := filepath.Join(top, "in")
	secret := filepath.Join(top, "secret.bin") // a file the input must not reach
	write := func(p string, b []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(secret, bin0)
	write(filepath.Join(in, "own.bin"), bin0)
	write(filepath.Join(in, "r.json-bin", "1.bin"), bin1)
	if err := os.Symlink(secret, filepath.Join(in, "link.bin")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, filename string
		ok             bool
	}{
		{"relative, inside", "own.bin", true},
		{"absolute, inside", filepath.Join(in, "own.bin"), true},
		{"dot-dot", "../secret.bin", false},
		{"absolute, outside", secret, false},
		{"symbolic link out", "link.bin", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(string(src), "with_bin.json-bin/0.bin", tt.filename, 1)
			doc = strings.Replace(doc, "with_bin.json-bin/1.bin", "r.json-bin/1.bin", 1)
			path := filepath.Join(in, "r.json")
			write(path, []byte(doc))
			bs, err := ParseFiles(NVBench, []string{path}, Options{})
			if tt.ok {
				if err != nil || len(bs) == 0 || len(bs[0].Samples) == 0 {
					t.Fatalf("err = %v, %d benchmarks; want the samples read", err, len(bs))
				}
				return
			}
			if !errors.As(err, new(*model.InputError)) || !strings.Contains(err.Error(), "cannot read sample times file") {
				t.Errorf("err = %v; want bad input refusing the file", err)
			}
		})
	}
}
