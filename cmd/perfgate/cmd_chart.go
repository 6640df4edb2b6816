package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perfgate/perfgate/tracker/chart"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func init() {
	register(&command{
		Name:    "chart",
		Summary: "draw a PNG or SVG chart: a benchmark's trend with its steps, or a comparison",
		Run:     runChart,
	})
}

// chartOut is where and how a chart is written.
type chartOut struct {
	out, format   string
	width, height float64 // inches
}

func (co *chartOut) register(fs interface {
	StringVar(*string, string, string, string)
	Float64Var(*float64, string, float64, string)
}) {
	fs.StringVar(&co.out, "out", "", "the image `FILE` to write (.png or .svg)")
	fs.StringVar(&co.format, "format", "", "png or svg (default: from the --out extension)")
	fs.Float64Var(&co.width, "width", 8, "image width in `inches` (PNG: 96 pixels an inch)")
	fs.Float64Var(&co.height, "height", 0, "image height in `inches` (0: 4 for a trend, fitted to the benchmarks for a comparison)")
}

// check validates the output flags and settles the format.
func (co *chartOut) check() error {
	if co.out == "" {
		return usageError("--out: name the image file, e.g. --out trend.png")
	}
	if co.format == "" {
		co.format = strings.TrimPrefix(strings.ToLower(filepath.Ext(co.out)), ".")
	}
	if co.format != "png" && co.format != "svg" {
		return usageError("--format: %q is not png or svg (or give --out a .png or .svg name)", co.format)
	}
	if !(co.width > 0 && co.width <= 100) || !(co.height >= 0 && co.height <= 100) {
		return usageError("--width/--height: must be between 0 and 100 inches, got %v×%v", co.width, co.height)
	}
	return nil
}

// write encodes p and writes it atomically.
func (co *chartOut) write(e *env, p *plot.Plot, height vg.Length) error {
	var b bytes.Buffer
	if err := chart.Encode(&b, p, co.format, vg.Length(co.width)*vg.Inch, height); err != nil {
		return err
	}
	if err := model.WriteFileAtomic(co.out, b.Bytes()); err != nil {
		return &model.InfraError{Op: "write " + co.out, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %s\n", co.out)
	return nil
}

func runChart(ctx context.Context, args []string, e *env) error {
	if len(args) == 0 || (args[0] != "trend" && args[0] != "compare") {
		fmt.Fprintln(e.Stderr, "usage: perfgate chart trend --benchmark PATTERN --out FILE.png|.svg [trend's flags]\n"+
			"       perfgate chart compare --report REPORT.json --out FILE.png|.svg")
		switch {
		case len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help"):
			return errHelp
		case len(args) > 0 && strings.HasPrefix(args[0], "-"):
			return usageError("chart: flag %s before what to draw: name trend or compare first", args[0])
		}
		return usageError("chart: name what to draw: trend or compare")
	}
	if args[0] == "trend" {
		return runChartTrend(ctx, args[1:], e)
	}
	return runChartCompare(args[1:], e)
}

func runChartTrend(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "chart trend", "--benchmark PATTERN --out FILE.png|.svg [--suite S] [--since 90d] [--branch main] [--testbed T] [--store DIR | --db URL]")
	var (
		tf trendFlags
		sf storeFlags
		co chartOut
	)
	tf.register(fs, e)
	sf.register(fs, e)
	co.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("chart trend: unexpected argument %q", fs.Arg(0))
	}
	if err := co.check(); err != nil {
		return err
	}
	if co.height == 0 {
		co.height = 4
	}
	series, opt, err := tf.read(ctx, sf)
	if err != nil {
		return err
	}
	title := tf.pattern
	if len(series) == 1 {
		title = series[0].Suite + "/" + series[0].Name
	}
	p, err := chart.Trend(trend.Analyze(series, opt), title+": median per run, 95% band, steps dashed")
	var tm *chart.TooManyError
	if errors.As(err, &tm) {
		return usageError("--benchmark: %v", err)
	} else if err != nil {
		return err
	}
	return co.write(e, p, vg.Length(co.height)*vg.Inch)
}

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

func runChartCompare(args []string, e *env) error {
	fs := newFlagSet(e, "chart compare", "--report REPORT.json --out FILE.png|.svg")
	var (
		co     chartOut
		report string
		title  string
	)
	fs.StringVar(&report, "report", "", "the `FILE` written by compare or check --format json")
	fs.StringVar(&title, "title", "change per benchmark", "the chart's `title`")
	co.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("chart compare: unexpected argument %q (the report goes in --report)", fs.Arg(0))
	case report == "":
		return usageError("--report: name the JSON report of compare or check --format json")
	}
	if err := co.check(); err != nil {
		return err
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return &model.InputError{File: report, Msg: err.Error()}
	}
	var doc struct {
		ThresholdPct float64           `json:"threshold_pct"` // percent (report.JSON)
		Benchmarks   []reportBenchmark `json:"benchmarks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return &model.InputError{File: report, Msg: "not the JSON of compare --format json: " + err.Error()}
	}
	bars := make([]chart.Bar, 0, len(doc.Benchmarks))
	for _, b := range doc.Benchmarks {
		bars = append(bars, chart.Bar{Label: b.Suite + "/" + b.Name, Change: orNaN(b.Change), Low: orNaN(b.CILow), High: orNaN(b.CIHigh), Verdict: b.Verdict})
	}
	p, h, err := chart.Comparison(bars, doc.ThresholdPct/100, title)
	if err != nil {
		return err
	}
	if co.height > 0 {
		h = vg.Length(co.height) * vg.Inch
	}
	return co.write(e, p, h)
}

// orNaN reads a JSON number that may be null.
func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}
