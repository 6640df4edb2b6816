package db

import (
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/scaletest"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestRecordArgsLinear: preparing a run's benchmark rows for Record is
// linear in its benchmarks (it was quadratic: a scan of every benchmark
// for each one's params). No database is needed.
func TestRecordArgsLinear(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 50000, Setup: func(n int) func() {
		bs := resultsjson.SourceOf(syntheticRun("scale", n, 1, time.Unix(0, 0))).Heads()
		return func() { newBenchmarkRows(bs) }
	}})
}

// TestContentHashLinear: hashing a run is linear in its samples.
func TestContentHashLinear(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 2000, Setup: func(n int) func() {
		r := resultsjson.SourceOf(syntheticRun("scale", n, 20, time.Unix(0, 0)))
		return func() {
			if _, err := contentHash(r); err != nil {
				t.Fatal(err)
			}
		}
	}})
}
