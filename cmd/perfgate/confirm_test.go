package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confirmRepo is a config whose suite k reports BenchmarkX at the time in
// value.txt (10 samples, ±3) and BenchmarkY at 50, with a store holding
// three baseline jobs at 100.
type confirmRepo struct {
	dir, cfg, store string
}

func newConfirmRepo(t *testing.T) *confirmRepo {
	t.Helper()
	dir := t.TempDir()
	r := &confirmRepo{dir: dir, cfg: filepath.Join(dir, ".perfgate.yml"), store: filepath.Join(dir, "store")}
	yml := `version: 1
suites:
  - name: k
    command:
      run: v=$(cat value.txt); for i in 0 1 2 3 4 5 6 7 8 9; do echo "BenchmarkX-2 10 $((v + i % 4)) ns/op"; echo "BenchmarkY-2 10 $((50 + i % 3)) ns/op"; done
      format: gotest
`
	if err := os.WriteFile(r.cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	r.setValue(t, 100)
	for i := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("main%d.json", i))
		r.run(t, "--out", out, "--run-id", fmt.Sprintf("main%d", i), "--event", "push", "--branch", "main")
		if _, stderr, code := invoke(t, nil, "record", "--store", r.store, out); code != 0 {
			t.Fatalf("record: exit %d\n%s", code, stderr)
		}
	}
	return r
}

func (r *confirmRepo) setValue(t *testing.T, v int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, "value.txt"), []byte(fmt.Sprint(v)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *confirmRepo) run(t *testing.T, args ...string) {
	t.Helper()
	args = append([]string{"run", "--config", r.cfg, "--commit", roundsSHA, "--testbed", "tb", "--repo", "o/r"}, args...)
	if _, stderr, code := invoke(t, nil, args...); code != 0 {
		t.Fatalf("perfgate %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
}

// TestCheckConfirm runs a pull request 25% slower in one process, then
// checks it with --confirm: when the 3 re-runs are back at 100 the
// regression is not confirmed and the check passes; when they are still
// slow it holds and the check fails.
func TestCheckConfirm(t *testing.T) {
	tests := []struct {
		name     string
		rerunAt  int
		code     int
		want     []string
		recorded int
	}{
		{"first run only: not confirmed", 100, 0,
			[]string{"→ re-run +0.0%", "not confirmed, now", "confirmation (0 held, 1 not confirmed)"}, 4},
		{"a real regression holds", 125, 1,
			[]string{"k/BenchmarkX: +2", "): held", "confirmation (1 held, 0 not confirmed)"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newConfirmRepo(t)
			r.setValue(t, 125)
			r.run(t, "--out", filepath.Join(r.dir, "pr")+"/", "--run-id", "pr7", "--event", "pull_request", "--branch", "feature", "--pr", "7")
			cands, _ := filepath.Glob(filepath.Join(r.dir, "pr", "*.json"))
			check := append([]string{"check", "--store", r.store, "--config", r.cfg}, cands...)
			if _, _, code := invoke(t, nil, check...); code != 1 {
				t.Fatalf("without --confirm: exit %d, want 1 (the first rounds regress)", code)
			}
			r.setValue(t, tt.rerunAt)
			stdout, stderr, code := invoke(t, nil, append(check, "--confirm", "--record")...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if !strings.Contains(stderr, "re-running k in 3 fresh rounds") || strings.Count(stderr, "perfgate: round ") != 3 {
				t.Errorf("stderr does not say what was re-run, or ran another number of processes:\n%s", stderr)
			}
			// The first run and the 3 confirmation rounds are stored.
			if n := strings.Count(stderr, "recorded run pr7"); n != tt.recorded {
				t.Errorf("%d runs of the job recorded, want %d:\n%s", n, tt.recorded, stderr)
			}
		})
	}
}
