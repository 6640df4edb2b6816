package chart

import (
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Formats are the image formats Encode writes.
var Formats = []string{"png", "svg"}

// Encode writes p as a width × height image in format ("png" at 96 dpi or
// "svg").
func Encode(w io.Writer, p *plot.Plot, format string, width, height vg.Length) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("chart: format %q is not png or svg", format)
	}
	wt, err := p.WriterTo(width, height, format)
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}
