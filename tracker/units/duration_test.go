package units

import (
	"testing"
	"time"
)

func TestParseTimeout(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{in: "90s", want: 90 * time.Second},
		{in: "5m", want: 5 * time.Minute},
		{in: "90", want: 90 * time.Second},
		{in: " 2m30s ", want: 150 * time.Second},
		{in: "0", wantErr: `"0" is not a positive duration (e.g. 30s, 5m)`},
		{in: "-5s", wantErr: `"-5s" is not a positive duration (e.g. 30s, 5m)`},
		{in: "soon", wantErr: `"soon" is not a positive duration (e.g. 30s, 5m)`},
		{in: "", wantErr: `"" is not a positive duration (e.g. 30s, 5m)`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTimeout(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("ParseTimeout(%q) = %v, %v; want error %q", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ParseTimeout(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}
