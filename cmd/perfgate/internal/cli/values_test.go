package cli

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestOldNew(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		base, cand Files
		want       string // the sides as "base|cand", or the error's text
	}{
		{"OLD NEW", []string{"old.txt", "new.txt"}, nil, nil, "old.txt|new.txt"},
		{"flags", nil, Files{"a", "b"}, Files{"c"}, "a,b|c"},
		{"both", []string{"x"}, Files{"a"}, nil, `unexpected argument "x": give OLD NEW, or --baseline and --candidate, not both`},
		{"one file", []string{"old.txt"}, nil, nil, "old.txt and what? Give OLD NEW"},
		{"three files", []string{"a", "b", "c"}, nil, nil, `unexpected argument "c"`},
		{"no baseline", nil, nil, Files{"c"}, "--baseline: at least one baseline file is required"},
		{"no candidate", nil, Files{"a"}, nil, "--candidate: at least one candidate file is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c, err := OldNew(tt.args, tt.base, tt.cand)
			got := b.String() + "|" + c.String()
			var xe *ExitError
			if err != nil {
				if got = err.Error(); !errors.As(err, &xe) || xe.Code != ExitBadInput {
					t.Errorf("OldNew: %v is not a usage error", err)
				}
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("OldNew(%q, %q, %q) = %q, want %q", tt.args, tt.base, tt.cand, got, tt.want)
			}
		})
	}
}

func TestAgeCutoffAndParseDuration(t *testing.T) {
	now := time.Date(2025, 3, 31, 12, 0, 0, 0, time.UTC)
	if c, err := AgeCutoff("since", "7d", now); err != nil || !c.Equal(now.AddDate(0, 0, -7)) {
		t.Errorf("AgeCutoff(7d) = %v, %v", c, err)
	}
	if _, err := AgeCutoff("since", "6m", now); err == nil || !strings.HasPrefix(err.Error(), "--since: ") {
		t.Errorf("AgeCutoff(6m) = %v, want an error naming --since", err)
	}
	if d, err := ParseDuration("--db-timeout", "90s"); err != nil || d != 90*time.Second {
		t.Errorf("ParseDuration(90s) = %v, %v", d, err)
	}
	if _, err := ParseDuration("--db-timeout", "soon"); err == nil || !strings.HasPrefix(err.Error(), "--db-timeout: ") {
		t.Errorf("ParseDuration(soon) = %v, want an error naming --db-timeout", err)
	}
}
