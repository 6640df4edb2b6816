package trend

import (
	"bytes"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestRender(t *testing.T) {
	tp := series(model.Higher, 1.5e6, 1.52e6, 1.49e6)
	tp.Suite, tp.Name, tp.Unit = "microbatch", "throughput/bs=8", "items/s"
	all := Analyze([]model.TrendSeries{series(model.Lower, cat(noisy, shift(noisy[:5], 1.2))...), tp}, DefaultOptions())
	for _, c := range []struct {
		name   string
		render func(*bytes.Buffer, []Series) error
	}{
		{"table.golden", func(b *bytes.Buffer, s []Series) error { return Table(b, s) }},
		{"csv.golden", func(b *bytes.Buffer, s []Series) error { return CSV(b, s) }},
		{"json.golden", func(b *bytes.Buffer, s []Series) error { return JSON(b, s) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.render(&b, all); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, b.Bytes())
		})
	}
	t.Run("empty", func(t *testing.T) {
		var b bytes.Buffer
		if err := JSON(&b, Analyze(nil, DefaultOptions())); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != "{\n  \"series\": []\n}\n" {
			t.Errorf("empty JSON = %q", got)
		}
	})
}
