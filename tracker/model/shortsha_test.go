package model

import "testing"

func TestShortSHA(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0123456789abcdef0123456789abcdef01234567", "0123456789ab"},
		{"0123456789ab", "0123456789ab"},
		{"abc1234", "abc1234"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ShortSHA(tt.in); got != tt.want {
				t.Errorf("ShortSHA(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
