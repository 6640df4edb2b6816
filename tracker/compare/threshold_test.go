package compare

import (
	"strings"
	"testing"
)

// TestParseThreshold: one unit everywhere, percent, with or without the
// sign; ambiguous and out-of-range values refused (issue 11, defect 3).
func TestParseThreshold(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		errHold string // "" = no error
	}{
		{"10", 0.10, ""},
		{"10%", 0.10, ""},
		{" 10 % ", 0.10, ""},
		{"0.5%", 0.005, ""},
		{"0", 0, ""},
		{"1", 0.01, ""},
		{"1000%", 10, ""},
		{"0.1", 0, `"0.1" is ambiguous: write 10% for 10 percent, or 0.1% for 0.1 percent`},
		{"0.05", 0, "write 5% for 5 percent"},
		{"-5", 0, "out of range"},
		{"1001", 0, "out of range"},
		{"ten", 0, "not a percentage"},
		{"NaN", 0, "not a percentage"},
		{"Inf%", 0, "not a percentage"},
		{"%", 0, "not a percentage"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseThreshold(tt.in)
			switch {
			case tt.errHold == "" && (err != nil || got != tt.want):
				t.Errorf("ParseThreshold(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			case tt.errHold != "" && (err == nil || !strings.Contains(err.Error(), tt.errHold)):
				t.Errorf("ParseThreshold(%q) = %v, %v; want an error holding %q", tt.in, got, err, tt.errHold)
			}
		})
	}
}
