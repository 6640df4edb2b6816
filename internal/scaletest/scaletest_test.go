package scaletest

import "testing"

// fakeT records failures instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Logf(string, ...any)   {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }

var sink int

// work does n units of work, or n² / 20000.
func work(n int, quadratic bool) func() {
	return func() {
		m := n
		if quadratic {
			m = n * n / 200000 // equal to n at the smaller size
		}
		s := 0
		for i := range m * 64 {
			s += i ^ (i >> 3)
		}
		sink = s
	}
}

func TestLinear(t *testing.T) {
	for _, tc := range []struct {
		name      string
		quadratic bool
		fail      bool
	}{
		{"linear passes", false, false},
		{"quadratic fails", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeT{TB: t}
			Linear(ft, Case{N: 200000, Setup: func(n int) func() { return work(n, tc.quadratic) }})
			if ft.failed != tc.fail {
				t.Errorf("failed = %v, want %v", ft.failed, tc.fail)
			}
		})
	}
}
