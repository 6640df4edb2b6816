package trend

import (
	"io"
	"testing"

	"github.com/perfgate/perfgate/internal/scaletest"
)

// TestTableLinear: printing a trend's table is linear in its points (the
// columns are sized in one pass and padded in another, textcol.Write).
func TestTableLinear(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 5000, Setup: func(n int) func() {
		se := []Series{{TrendSeries: benchSeries(n, 1)}}
		return func() {
			if err := Table(io.Discard, se); err != nil {
				t.Fatal(err)
			}
		}
	}})
}
