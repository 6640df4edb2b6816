package trend

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestChanges(t *testing.T) {
	a := series(model.Lower, cat(noisy, shift(noisy, 1.3), noisy)...)
	b := series(model.Higher, cat(noisy[:3], shift(noisy, 0.8))...)
	b.Suite, b.Name, b.Unit = "microbatch", "throughput/bs=8", "items/s"
	cs := Changes(Analyze([]model.TrendSeries{a, b}, DefaultOptions()))
	if len(cs) != 3 || cs[0].Index != 20 || cs[1].Index != 10 || cs[2].Index != 3 || cs[2].Name != "throughput/bs=8" {
		t.Fatalf("Changes = %+v, want steps at 20, 10 (add) and 3 (throughput), newest first", cs)
	}
}
