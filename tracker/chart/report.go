package chart

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// reportBenchmark is the part of a benchmark in the JSON of compare and
// check --format json that a comparison chart draws (docs/compare.md).
type reportBenchmark struct {
	Suite   string   `json:"suite"`
	Name    string   `json:"name"`
	Change  *float64 `json:"change"`
	CILow   *float64 `json:"ci_low"`
	CIHigh  *float64 `json:"ci_high"`
	Verdict string   `json:"verdict"`
}

// ParseComparison reads the JSON report of compare or check --format json:
// a bar per benchmark and the threshold as a fraction. Data that is not
// that JSON is a *model.InputError naming file.
func ParseComparison(file string, data []byte) (bars []Bar, threshold float64, err error) {
	var doc struct {
		ThresholdPct float64           `json:"threshold_pct"` // percent (report.JSON)
		Benchmarks   []reportBenchmark `json:"benchmarks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, 0, &model.InputError{File: file, Msg: fmt.Sprintf("not the JSON of compare %s json: %v", model.Flag("format"), err)}
	}
	bars = make([]Bar, 0, len(doc.Benchmarks))
	for _, b := range doc.Benchmarks {
		bars = append(bars, Bar{Label: b.Suite + "/" + b.Name, Change: orNaN(b.Change), Low: orNaN(b.CILow), High: orNaN(b.CIHigh), Verdict: b.Verdict})
	}
	return bars, doc.ThresholdPct / 100, nil
}

// orNaN reads a JSON number that may be null.
func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// An Output is where and how a chart is written: the flags --out,
// --format, --width and --height.
type Output struct {
	Path, Format  string
	Width, Height float64 // inches; Height 0: the chart's own
}

// Check validates o and settles the format from the file's extension when
// none is given.
func (o *Output) Check() error {
	if o.Path == "" {
		return model.SettingError("out", "name the image file, e.g. %s trend.png", model.Flag("out"))
	}
	if o.Format == "" {
		o.Format = strings.TrimPrefix(strings.ToLower(filepath.Ext(o.Path)), ".")
	}
	if o.Format != "png" && o.Format != "svg" {
		return model.SettingError("format", "%q is not png or svg (or give %s a .png or .svg name)", o.Format, model.Flag("out"))
	}
	if !(o.Width > 0 && o.Width <= 100) || !(o.Height >= 0 && o.Height <= 100) {
		return &model.InputError{Msg: fmt.Sprintf("%s/%s: must be between 0 and 100 inches, got %v×%v", model.Flag("width"), model.Flag("height"), o.Width, o.Height)}
	}
	return nil
}
