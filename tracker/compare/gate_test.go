package compare

import "testing"

// TestSummaryChanged checks which verdicts make a comparison worth a new
// pull-request comment: any but unchanged and skipped.
func TestSummaryChanged(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		want bool
	}{
		{"nothing", Summary{}, false},
		{"unchanged and skipped", Summary{Unchanged: 3, Skipped: 2, BelowThreshold: 1}, false},
		{"a regression", Summary{Unchanged: 3, Regressions: 1}, true},
		{"an accepted regression", Summary{Accepted: 1}, true},
		{"an improvement", Summary{Improvements: 1}, true},
		{"a warning", Summary{Warnings: 1}, true},
		{"insufficient", Summary{Insufficient: 1}, true},
		{"an error", Summary{Errors: 1}, true},
		{"incomparable", Summary{Incomparable: 1}, true},
		{"noisy", Summary{Noisy: 1}, true},
		{"not yet gateable", Summary{NotYet: 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Changed(); got != tt.want {
				t.Errorf("Changed() = %v, want %v", got, tt.want)
			}
		})
	}
}
