package cli

import (
	"bytes"
	"testing"
)

// TestRenameFlag checks that a renamed flag's old spelling sets the new
// flag, counts as given under the new name, and warns once however often
// it is given.
func TestRenameFlag(t *testing.T) {
	var stderr bytes.Buffer
	e := &Env{Stderr: &stderr, Getenv: func(string) string { return "" }}
	fs := NewFlagSet(e, "check", "")
	jobs := fs.Int("baseline-jobs", 3, "jobs")
	RenameFlag(fs, e, "baseline-runs", "baseline-jobs")
	if err := ParseFlags(fs, []string{"--baseline-runs", "5", "--baseline-runs=7"}); err != nil {
		t.Fatal(err)
	}
	if *jobs != 7 || !FlagsGiven(fs)["baseline-jobs"] {
		t.Errorf("--baseline-jobs = %d, given %v; want 7, given", *jobs, FlagsGiven(fs))
	}
	if got, want := stderr.String(), "perfgate: warning: --baseline-runs is deprecated: name it --baseline-jobs\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// TestRenameEnv checks that an old variable is read while the new one is
// empty, ignored when both are set, and that each says so once.
func TestRenameEnv(t *testing.T) {
	tests := []struct {
		name       string
		vars       map[string]string
		want, warn string
	}{
		{"neither", nil, "", ""},
		{"the new name", map[string]string{"NEW": "1"}, "1", ""},
		{"the old name", map[string]string{"OLD": "2"}, "2", "perfgate: warning: OLD is deprecated: name it NEW\n"},
		{"both", map[string]string{"NEW": "1", "OLD": "2"}, "1", "perfgate: warning: OLD is deprecated and ignored: NEW is set\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			e := &Env{Stderr: &stderr, Getenv: func(k string) string { return tt.vars[k] }}
			e.RenameEnv(map[string]string{"NEW": "OLD"})
			for range 2 {
				if got := e.Getenv("NEW"); got != tt.want {
					t.Errorf("Getenv(NEW) = %q, want %q", got, tt.want)
				}
			}
			if got := e.Getenv("OTHER"); got != "" {
				t.Errorf("Getenv(OTHER) = %q", got)
			}
			if stderr.String() != tt.warn {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.warn)
			}
		})
	}
}
