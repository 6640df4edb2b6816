package cliflag

import (
	"strings"
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	now := time.Date(2025, 3, 31, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		before string // the cutoff from now, RFC 3339; "" for no limit
		err    string // substring of the error; "" for success
	}{
		{"90d", "2024-12-31T12:00:00Z", ""},
		{" 7d ", "2025-03-24T12:00:00Z", ""},
		{"12w", "2025-01-06T12:00:00Z", ""},
		{"6mo", "2024-10-01T12:00:00Z", ""}, // Go's AddDate normalises Sep 31 to Oct 1
		{"1y", "2024-03-31T12:00:00Z", ""},
		{"36h", "2025-03-30T00:00:00Z", ""},
		{"0", "", ""},
		// The defect: 6m meant six minutes to prune and six months to the user.
		{"6m", "", "ambiguous: write 6mo for months"},
		{"1m", "", "ambiguous"},
		{"90s", "", "not seconds"},
		{"90m30s", "", "not an age"},
		{"1h30m", "", "not an age"},
		{"9q", "", `unknown unit "q"`},
		{"", "", "not an age"},
		{"d", "", "not an age"},
		{"-1d", "", "not an age"},
		{"0d", "", "not an age"},
		{"1.5d", "", "not an age"},
		{"200000d", "", "century"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := ParseAge(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseAge(%q) = %v, %v; want an error containing %q", tt.in, a, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAge(%q): %v", tt.in, err)
			}
			got := ""
			if b := a.Before(now); !b.IsZero() {
				got = b.Format(time.RFC3339)
			}
			if got != tt.before {
				t.Errorf("ParseAge(%q).Before(%s) = %q, want %q", tt.in, now.Format(time.RFC3339), got, tt.before)
			}
		})
	}
}
