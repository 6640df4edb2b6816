package db

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// BenchmarkRecordWide records one run of many benchmarks × 100 samples, at
// sizes a factor of two apart, so the cost per benchmark shows whether
// recording stays linear in the benchmarks of a run (docs/database.md):
//
//	go test ./db -run '^$' -bench RecordWide -benchtime 1x
//
// "new" records benchmarks the database has never seen (their rows are
// inserted too); "again" records benchmarks a run recorded before the timer
// started, the steady state of a project's history.
func BenchmarkRecordWide(b *testing.B) {
	s, _ := migratedStore(b)
	ctx := context.Background()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	seq := 0
	for _, n := range []int{12500, 25000, 50000, 100000} {
		for _, again := range []bool{false, true} {
			b.Run(fmt.Sprintf("benchmarks=%d/samples=100/%s", n, map[bool]string{false: "new", true: "again"}[again]), func(b *testing.B) {
				if again { // the benchmarks of this size, stored before timing
					seq++
					warm := syntheticRun(fmt.Sprintf("wide-%d", seq), n, 1, start.Add(time.Duration(seq)*time.Hour))
					if _, err := s.Record(ctx, warm); err != nil {
						b.Fatal(err)
					}
				}
				runs := make([]*model.Results, b.N)
				for i := range runs {
					seq++
					runs[i] = syntheticRun(fmt.Sprintf("wide-%d", seq), n, 100, start.Add(time.Duration(seq)*time.Hour))
					if !again { // names no earlier run used
						for j := range runs[i].Benchmarks {
							runs[i].Benchmarks[j].Suite = fmt.Sprintf("wide-%d", seq)
						}
					}
				}
				b.ResetTimer()
				for i := range b.N {
					if out, err := s.Record(ctx, runs[i]); err != nil || out != model.Recorded {
						b.Fatalf("Record: %v, %v", out, err)
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N*n), "µs/benchmark")
			})
		}
	}
}
