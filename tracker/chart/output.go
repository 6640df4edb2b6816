package chart

import (
	"bytes"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// TrendHeight is the height of a trend chart whose Output sets none.
const TrendHeight = 4 * vg.Inch

// TrendTitle is the title of the trend chart of series, selected by
// pattern: the one benchmark's suite/name, else the pattern, and what the
// chart draws.
func TrendTitle(pattern string, series []trend.Series) string {
	if len(series) == 1 {
		pattern = series[0].Suite + "/" + series[0].Name
	}
	return pattern + ": median per run, 95% band, steps dashed"
}

// Encode writes p in o's format, o.Width wide and o.Height high, or fit
// high (the chart's own height: TrendHeight, or Comparison's) when
// o.Height is 0.
func (o Output) Encode(w io.Writer, p *plot.Plot, fit vg.Length) error {
	h := fit
	if o.Height > 0 {
		h = vg.Length(o.Height) * vg.Inch
	}
	return Encode(w, p, o.Format, vg.Length(o.Width)*vg.Inch, h)
}

// WriteFile encodes p as Encode does and writes it to o.Path atomically: a
// failed chart leaves no half-written file.
func (o Output) WriteFile(p *plot.Plot, fit vg.Length) error {
	var b bytes.Buffer
	if err := o.Encode(&b, p, fit); err != nil {
		return err
	}
	if err := atomicfile.Write(o.Path, b.Bytes()); err != nil {
		return &model.InfraError{Op: "write " + o.Path, Err: err}
	}
	return nil
}

// text is user text (names, units, commits, titles) as a chart sets it:
// valid UTF-8 with control characters and bidirectional controls replaced
// by "?". The SVG writer escapes markup but passes control characters,
// which XML 1.0 forbids even escaped: one in a name made the SVG unreadable.
func text(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0xfffe || r == 0xffff || safetext.IsBidi(r) {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}
