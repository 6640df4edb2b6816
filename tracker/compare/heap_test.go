package compare

import "testing"

func TestHeapLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input int64
		want  int64
	}{
		{"empty", 0, 0},
		{"small input, no limit", 1 << 20, 0},
		{"just under 32 MiB of limit", (32 << 20) / 3, 0},
		{"11 MiB, over the floor", 11<<20 + 1, 3 * (11<<20 + 1)},
		{"1 GiB of results", 1 << 30, 3 << 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := HeapLimit(tc.input); got != tc.want {
				t.Errorf("HeapLimit(%d) = %d, want %d", tc.input, got, tc.want)
			}
		})
	}
}
