package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/scaletest"
)

// goTestOutput returns go test -bench output of n benchmarks, count lines
// each, three units a line.
func goTestOutput(n, count int) []byte {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/k\ncpu: X\n")
	for c := range count {
		for i := range n {
			fmt.Fprintf(&b, "BenchmarkK/size=%05d-8 \t 1000\t %d.5 ns/op\t %d B/op\t 1 allocs/op\n", i, 1000+i+c, 64*(i%5))
		}
	}
	b.WriteString("PASS\n")
	return []byte(b.String())
}

// TestParseGoTestLinear: parsing go test output is linear in its lines,
// whether they add benchmarks or samples.
func TestParseGoTestLinear(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input func(n int) []byte
	}{
		{"benchmarks", func(n int) []byte { return goTestOutput(n, 5) }},
		{"samples", func(n int) []byte { return goTestOutput(500, n/500) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scaletest.Linear(t, scaletest.Case{N: 5000, Setup: func(n int) func() {
				data := tc.input(n)
				return func() {
					if _, err := ParseGoTest("x.txt", data, Options{}); err != nil {
						t.Fatal(err)
					}
				}
			}})
		})
	}
}

func BenchmarkParseGoTest(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := goTestOutput(n, 10)
		b.Run(fmt.Sprintf("benchmarks=%d/count=10", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseGoTest("x.txt", data, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
