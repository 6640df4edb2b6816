package ingest

import (
	"fmt"
	"runtime"
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

// jsonSamplesInput returns a json-samples document of n benchmarks of s
// samples each.
func jsonSamplesInput(n, s int) []byte {
	var b strings.Builder
	b.WriteString(`{"unit": "ms", "benchmarks": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"bench/n=%05d": [`, i)
		for j := range s {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d.%03d", 1000+i, j%997)
		}
		b.WriteByte(']')
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// TestParseJSONSamplesLinear: parsing json-samples is linear in its
// samples, whether they add benchmarks or samples per benchmark (issue 28,
// item 14: a 100 MB file took 13.8 s and 1.1 GB through perfgate ingest).
func TestParseJSONSamplesLinear(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input func(n int) []byte
	}{
		{"benchmarks", func(n int) []byte { return jsonSamplesInput(n, 20) }},
		{"samples", func(n int) []byte { return jsonSamplesInput(50, n) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scaletest.Linear(t, scaletest.Case{N: 5000, Setup: func(n int) func() {
				data := tc.input(n)
				return func() {
					if _, err := ParseJSONSamples("x.json", data, Options{}); err != nil {
						t.Fatal(err)
					}
				}
			}})
		})
	}
}

// TestParseJSONSamplesMemory: parsing json-samples allocates little more
// than the samples it returns (8 bytes each), not copies of the document
// (issue 28, item 14: 1.1 GB for a 100 MB file through perfgate ingest).
func TestParseJSONSamplesMemory(t *testing.T) {
	const n, s = 100, 20000
	data := jsonSamplesInput(n, s)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	bs, err := ParseJSONSamples("x.json", data, Options{})
	runtime.ReadMemStats(&after)
	if err != nil || len(bs) != n {
		t.Fatalf("%d benchmarks, %v", len(bs), err)
	}
	alloc, samples := after.TotalAlloc-before.TotalAlloc, uint64(8*n*s)
	t.Logf("%d MB of input, %d MB of samples: allocated %d MB", len(data)>>20, samples>>20, alloc>>20)
	if alloc > samples+samples/4 {
		t.Errorf("allocated %d bytes to parse %d of samples (input %d bytes)", alloc, samples, len(data))
	}
}
