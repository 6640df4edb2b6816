package benchpkg

import (
	"fmt"
	"math/rand"
	"testing"
)

func TestPasses(t *testing.T) {
	for _, tt := range []struct{ pct, want int }{{0, 10}, {20, 12}, {100, 20}} {
		if got := passes(tt.pct); got != tt.want {
			t.Errorf("passes(%d) = %d, want %d", tt.pct, got, tt.want)
		}
	}
}

func TestInsertionSort(t *testing.T) {
	xs := []int{5, 2, 9, 1, 5, 6}
	InsertionSort(xs)
	for i := 1; i < len(xs); i++ {
		if xs[i-1] > xs[i] {
			t.Fatalf("not sorted: %v", xs)
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 12} {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			data := make([]byte, n)
			rand.New(rand.NewSource(1)).Read(data)
			b.SetBytes(int64(n))
			var sink uint64
			cpu0 := cpuTime()
			for b.Loop() {
				sink += Checksum(data)
			}
			// CPU time per op as well as wall time: on a shared machine the
			// wall time carries other processes' load, the CPU time much less.
			if cpu := cpuTime() - cpu0; cpu0 >= 0 {
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(passes(SlowdownPercent())), "passes/op")
			_ = sink
		})
	}
}

func BenchmarkInsertionSort(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	src := rng.Perm(256)
	xs := make([]int, len(src))
	b.ReportAllocs()
	for b.Loop() {
		copy(xs, src)
		InsertionSort(xs)
	}
}
