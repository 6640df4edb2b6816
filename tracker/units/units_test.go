package units

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{51234.5, "ns", "51.23 µs"},
		{49.47, "us", "49.47 µs"},
		{0.25, "ms", "250.0 µs"},
		{1500, "ms", "1.500 s"},
		{812, "ns", "812.0 ns"},
		{17946, "ns/op", "17.95 µs/op"},
		// Issue 11 defect 8: custom go test units were printed raw.
		{11728, "cpu-ns/op", "11.73 cpu-µs/op"},
		{2.5e9, "ns/op", "2.500 s/op"},
		{0.004, "sec/op", "4.000 ms/op"},
		{57.06, "MB/s", "54.42 MiB/s"},
		{3842.1, "GB/s", "3842 GB/s"},
		{50, "B/op", "50.00 B/op"},
		{1234567, "allocs/op", "1.235M allocs/op"},
		{10, "passes/op", "10.00 passes/op"},
		{95.5, "%", "95.50 %"},
		{3, "", "3.000"},
		{math.NaN(), "ns", "—"},
		{11728, "nsec-ish", "11728 nsec-ish"},
	}
	for _, tt := range tests {
		if got := Format(tt.v, tt.unit); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		v      float64
		unit   string
		factor float64
		scaled string
	}{
		{11728, "cpu-ns/op", 1e-3, "cpu-µs/op"},
		{51234.5, "ns", 1e-3, "µs"},
		{3842.1, "GB/s", 1, "GB/s"},
		{57.06, "MB/s", 1e6 / (1 << 20), "MiB/s"},
		{0, "ns", 1, "ns"},
	}
	for _, tt := range tests {
		f, u := Scale(tt.v, tt.unit)
		if math.Abs(f/tt.factor-1) > 1e-12 || u != tt.scaled {
			t.Errorf("Scale(%v, %q) = %v, %q; want %v, %q", tt.v, tt.unit, f, u, tt.factor, tt.scaled)
		}
	}
}
