package compare

import "testing"

// BenchmarkCompare10k compares 10,000 benchmarks with 100 samples per side
// (each side one run), 1% of them shifted by 20%. Goal: ≤ 1 s/op on a
// 2-core machine.
func BenchmarkCompare10k(b *testing.B) {
	base, cand := synth(10000, 100, 0.03, 1, func(i int) float64 {
		if i%100 == 0 {
			return 1.2
		}
		return 1
	})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c, err := Compare(base, cand, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if c.Summary.Regressions < 90 {
			b.Fatalf("%d regressions, want about 100", c.Summary.Regressions)
		}
	}
}
