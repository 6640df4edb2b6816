package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A recorder is a testing.TB that keeps what Check reported.
type recorder struct {
	testing.TB
	errs  []string
	fatal bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs Check in a goroutine of its own, as Fatalf ends it.
func check(t *testing.T, name, got string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(r, name, got)
	}()
	<-done
	return r
}

func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(filepath.Join("testdata", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "sub", "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, file, got string
		want            []string // substrings of the one message; none: passes
		fatal           bool
	}{
		{"same", "sub/a.txt", "one\ntwo\nthree\n", nil, false},
		{"a line differs", "sub/a.txt", "one\n2\nthree\n", []string{"testdata/sub/a.txt differs", "line 2:", `got: "2\n"`, `want: "two\n"`, "go test -update rewrites it"}, false},
		{"shorter", "sub/a.txt", "one\ntwo\n", []string{"line 3:", "got: (end of file)", `want: "three\n"`}, false},
		{"longer", "sub/a.txt", "one\ntwo\nthree\nfour\n", []string{"line 4:", `got: "four\n"`, "want: (end of file)"}, false},
		{"missing", "none.txt", "x", []string{"none.txt", "go test -update writes it"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := check(t, tt.file, tt.got)
			if len(tt.want) == 0 {
				if len(r.errs) != 0 {
					t.Errorf("Check reported %q; want nothing", r.errs)
				}
				return
			}
			if len(r.errs) != 1 || r.fatal != tt.fatal {
				t.Fatalf("Check reported %q (fatal %v); want one message (fatal %v)", r.errs, r.fatal, tt.fatal)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.errs[0], w) {
					t.Errorf("message %q lacks %q", r.errs[0], w)
				}
			}
		})
	}
}

func TestUpdateWrites(t *testing.T) {
	t.Chdir(t.TempDir())
	*update = true
	defer func() { *update = false }()
	if r := check(t, "new/dir/b.txt", "rendered\n"); len(r.errs) != 0 {
		t.Fatalf("Check under -update reported %q", r.errs)
	}
	got, err := os.ReadFile(filepath.Join("testdata", "new", "dir", "b.txt"))
	if err != nil || string(got) != "rendered\n" {
		t.Errorf("under -update testdata/new/dir/b.txt = %q, %v; want the rendered text", got, err)
	}
}
