package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestIngestRunMetadata: ingest takes --started-at, prints the metadata it
// used and where each guess came from, and does not take the branch of
// the checkout for another commit's output (issue 11, defect 4).
func TestIngestRunMetadata(t *testing.T) {
	in := filepath.Join(ingestTestdata, "gotest/benchpkg_count5.txt")
	other := strings.Repeat("d", 40)
	tests := []struct {
		name        string
		args        []string
		branch      string
		startedAt   time.Time // zero: about now
		stderrHolds []string
	}{
		{"backfill", []string{"--commit", other, "--branch", "main", "--started-at", "2024-01-02T03:04:05Z"}, "main",
			time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
			[]string{"branch main (--branch)", "sha dddddddddddd (--commit)", "started_at 2024-01-02T03:04:05Z (--started-at)", "testbed tb (--testbed)", "repo o/r (--repo)"}},
		{"another commit than the checkout's", []string{"--commit", other}, "local", time.Time{},
			[]string{"branch local (default: the checkout's HEAD", "name it with --branch", "(now)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"ingest", "--format", "gotest", "--out", out, "--repo", "o/r", "--testbed", "tb"}, tt.args...)
			_, stderr, code := invoke(t, map[string]string{"GITHUB_SHA": "", "GITHUB_REF_NAME": "", "GITHUB_HEAD_REF": ""}, append(args, in)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			r, err := resultsjson.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Run.Branch != tt.branch {
				t.Errorf("branch %q, want %q", r.Run.Branch, tt.branch)
			}
			if !tt.startedAt.IsZero() && !r.Run.StartedAt.Equal(tt.startedAt) {
				t.Errorf("started_at %v, want %v", r.Run.StartedAt, tt.startedAt)
			}
			for _, want := range append(tt.stderrHolds, "perfgate: run metadata: ") {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q does not hold %q", stderr, want)
				}
			}
		})
	}
	if _, stderr, code := invoke(t, nil, "ingest", "--format", "gotest", "--started-at", "last week", in); code != cli.ExitBadInput || !strings.Contains(stderr, "--started-at") {
		t.Errorf("--started-at 'last week': exit %d, stderr %q; want 2 naming the flag", code, stderr)
	}
}
