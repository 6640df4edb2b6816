package runner

import (
	"bytes"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b)
	p.Line("elementwise/add/dtype=fp32/n=1M/mode=cold 9.1 us")
	p.Line("elementwise/add/dtype=fp32/n=1M/mode=batch 3.7 us")
	p.Done()
	if got := b.String(); got != "elementwise/add/dtype=fp32/n=1M/mode=cold 9.1 us\nelementwise/add/dtype=fp32/n=1M/mode=batch 3.7 us\n" {
		t.Errorf("a non-terminal gets one plain line per benchmark, got %q", got)
	}
}

func TestHealth(t *testing.T) {
	ok := model.Benchmark{Name: "a", Info: map[string]string{}}
	failed := model.Benchmark{Name: "b", Error: "wrong result"}
	flagged := model.Benchmark{Name: "c", Info: map[string]string{"clock_flag": "40 of 500 samples taken below 90%"}}
	tests := []struct {
		name string
		bs   []model.Benchmark
		want []string
	}{
		{"clean run says nothing", []model.Benchmark{ok, ok}, nil},
		{"failures and clock flags are both counted", []model.Benchmark{ok, failed, flagged, flagged}, []string{
			"perfgate: 1 of 4 benchmarks failed (their error is in the results)",
			"perfgate: 2 of 4 benchmarks dropped more than 5% of their samples for a low SM clock (info.clock_flag): " +
				"the GPU was throttling or not yet boosted; see perfgate doctor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Health(tt.bs); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
