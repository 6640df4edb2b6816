package main

import (
	"os"
	"testing"
)

// TestCheckSlowedSaxpy runs the GPU leg's assertions on comments of the
// shape the report writes, so that they are known to pass on a good
// comment and fail on the one the lent H100 gave before issue 25.
func TestCheckSlowedSaxpy(t *testing.T) {
	good := "| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=batch</code> | +14.2% | +14.2% | +14.2% | ❌ held |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=cold</code> | +24.5% | +24.6% | +24.5% | ❌ held |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=batch</code> | 75.71 µs → 86.46 µs | **+14.2%** | +13.9% … +14.5% | &lt;0.001 | 1417/2928 |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=cold</code> | 78.72 µs → 98.01 µs | **+24.5%** | +24.3% … +24.7% | &lt;0.001 | 6000/12000 |\n"
	ok := &fakeT{}
	checkSlowedSaxpyOn(ok, good)
	if ok.failed {
		t.Errorf("a good comment failed: %v", ok.msgs)
	}
	// The whole comment of the GPU leg on a lent H200 (2026-11-27): both held,
	// +21.2% and +25.9%.
	real, err := os.ReadFile("testdata/act_gpu_comment_h200.md")
	if err != nil {
		t.Fatal(err)
	}
	onGPU := &fakeT{}
	checkSlowedSaxpyOn(onGPU, string(real))
	if onGPU.failed {
		t.Errorf("the GPU leg's comment failed: %v", onGPU.msgs)
	}
	// The H100 comment before issue 25: the cold one not confirmed, now
	// noisy; the batch one held but its change was not the ratio shown.
	bad := "| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=batch</code> | +14.2% | +14.2% | +14.2% | ❌ held |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=cold</code> | +24.5% | +24.6% | +24.5% | ✅ not confirmed, now noisy |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=batch</code> | 245.8 µs → 482.5 µs | **+66.8%** | +60.1% … +70.2% | &lt;0.001 | 1417/2928 |\n" +
		"| <code>saxpy/<wbr>saxpy/<wbr>n=16777216/<wbr>mode=cold</code> | 78.72 µs → 98.01 µs | +24.5% | -25.7% … +108.6% | 0.2 | 6000/12000 | runs move ±7% |\n"
	ft := &fakeT{}
	checkSlowedSaxpyOn(ft, bad)
	if len(ft.msgs) != 3 {
		t.Errorf("the old comment gave %d complaints, want 3 (cold not held, cold not a regression, batch's change not its ratio): %v", len(ft.msgs), ft.msgs)
	}
}

type fakeT struct {
	failed bool
	msgs   []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.failed = true
	f.msgs = append(f.msgs, format)
}
