// Package ingest turns the output of existing benchmark tools into perfgate
// benchmarks: go test -bench text, Google Benchmark JSON, pytest-benchmark
// JSON, Criterion.rs directories, nvbench JSON, perfgate results v1, a plain
// json-samples map, and two formats of ML benchmark scripts (comprehensive
// and sdpa-jsonl).
//
// Samples are only ever what the tool measured: a tool that kept only
// summaries yields one summary per run, flagged SummaryOnly, never invented
// samples. Malformed input is a *model.InputError naming the file and the
// line or JSON path. Detect tells a file's format by its content, and a
// Side loads a comparison's files in whatever formats they are
// (perfgate compare OLD NEW). The package imports tracker/model and the
// standard library only, and does no I/O except in ParseFiles, Detect and
// Side.Load.
package ingest

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// The formats.
const (
	GoTest          = "gotest"
	GBench          = "gbench"
	PytestBenchmark = "pytest-benchmark"
	Criterion       = "criterion"
	NVBench         = "nvbench"
	Perfgate        = "perfgate"
	JSONSamples     = "json-samples"
	Comprehensive   = "comprehensive"
	SDPAJSONL       = "sdpa-jsonl"
)

// Formats lists the formats Parse understands.
var Formats = []string{GoTest, GBench, PytestBenchmark, Criterion, NVBench, Perfgate, JSONSamples, Comprehensive, SDPAJSONL}

// Options adjust parsing.
type Options struct {
	// Suite names the suite of every benchmark (default: the format's name).
	// Formats that carry suites of their own (perfgate) keep theirs.
	Suite string
	// Unit and Better describe json-samples input that does not say.
	Unit   string
	Better model.Better
	// Metric picks the unit of go test output whose values are the samples
	// (default ns/op), e.g. a b.ReportMetric unit such as cpu-ns/op.
	Metric string
	// CriterionBaseline names the Criterion baseline to read: a directory
	// beside new/ that --save-baseline NAME wrote ("base" is the run before
	// the latest). "" reads new/, the latest run.
	CriterionBaseline string
	// Stdin is what ParseFiles reads for the path "-" (nil: "-" is an error).
	Stdin io.Reader
}

func (o Options) suite(format string) string {
	if o.Suite != "" {
		return o.Suite
	}
	return format
}

// Parse parses one file's content in the given format; name labels errors.
// Criterion output is a directory tree: use ParseFiles, or ParseCriterion.
func Parse(format, name string, data []byte, o Options) ([]model.Benchmark, error) {
	return parse(format, name, data, nil, o)
}

// parse is Parse with the reader of nvbench --jsonbin files (nil: none).
func parse(format, name string, data []byte, readBin func(string) ([]byte, error), o Options) ([]model.Benchmark, error) {
	if err := resultsjson.CheckUTF8(name, data); err != nil {
		return nil, err
	}
	var (
		bs  []model.Benchmark
		err error
	)
	switch format {
	case GoTest:
		bs, err = ParseGoTest(name, data, o)
	case GBench:
		bs, err = ParseGBench(name, data, o)
	case PytestBenchmark:
		bs, err = ParsePytest(name, data, o)
	case NVBench:
		bs, err = ParseNVBench(name, data, readBin, o)
	case Perfgate:
		bs, err = parsePerfgate(name, data)
	case JSONSamples:
		bs, err = ParseJSONSamples(name, data, o)
	case Comprehensive:
		bs, err = ParseComprehensive(name, data, o)
	case SDPAJSONL:
		bs, err = ParseSDPA(name, data, o)
	case Criterion:
		return nil, &model.InputError{File: name, Msg: "criterion output is a directory (target/criterion), not a single file"}
	default:
		return nil, fmt.Errorf("unknown format %q (have %s)", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return nil, &model.InputError{File: name, Msg: fmt.Sprintf("no benchmarks found (is this %s output?)", format)}
	}
	return bs, checkUnique(name, bs)
}

// checkUnique reports two benchmarks of one input with the same suite and
// name: which of them a comparison should use is not for perfgate to guess.
func checkUnique(file string, bs []model.Benchmark) error {
	seen := make(map[model.Key]bool, len(bs))
	for _, b := range bs {
		if seen[b.Key()] {
			return &model.InputError{File: file, Msg: fmt.Sprintf("benchmark %s appears twice", b.Key())}
		}
		seen[b.Key()] = true
	}
	return nil
}

func parsePerfgate(name string, data []byte) ([]model.Benchmark, error) {
	r, err := resultsjson.Parse(name, data)
	if err != nil {
		return nil, err
	}
	return r.Benchmarks, nil
}

func bad(file, path, format string, args ...any) *model.InputError {
	return &model.InputError{File: file, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func lineAt(n int) string { return fmt.Sprintf("line %d", n) }

// Merge pools benchmarks with the same suite and name (from repeated runs of
// a command, or several files) into one, in first-seen order. Samples are
// concatenated; a benchmark is SummaryOnly if any part was; metrics and info
// of the first part win. Units must agree. A benchmark that failed in some
// parts but has samples from others keeps them, and Info["failed_parts"]
// says how many parts failed and why.
func Merge(parts ...[]model.Benchmark) ([]model.Benchmark, error) {
	var out []model.Benchmark
	index := map[model.Key]int{}
	failed := map[model.Key][]string{}
	for _, bs := range parts {
		for _, b := range bs {
			if b.Error != "" {
				failed[b.Key()] = append(failed[b.Key()], b.Error)
			}
			i, seen := index[b.Key()]
			if !seen {
				// The parts' samples are not copied (a 100 MB file's
				// would be held twice): an append to them below gets a
				// new array (slices.Clip), and Info is cloned before
				// it is changed.
				index[b.Key()] = len(out)
				out = append(out, b)
				continue
			}
			m := &out[i]
			if m.Unit != b.Unit {
				return nil, fmt.Errorf("benchmark %s: unit %q in one part, %q in another", b.Key(), m.Unit, b.Unit)
			}
			m.Samples = append(slices.Clip(m.Samples), b.Samples...)
			m.SummaryOnly = m.SummaryOnly || b.SummaryOnly
			if m.Error == "" {
				m.Error = b.Error
			}
		}
	}
	for i := range out {
		b := &out[i]
		if errs := failed[b.Key()]; len(b.Samples) > 0 && len(errs) > 0 {
			b.Error = ""
			if b.Info = maps.Clone(b.Info); b.Info == nil {
				b.Info = map[string]string{}
			}
			b.Info["failed_parts"] = fmt.Sprintf("%d of %d parts failed: %s", len(errs), len(parts), errs[0])
		}
	}
	return out, nil
}

// median returns the median of xs (which it sorts), or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// betterForUnit guesses the direction of a unit: rates are better higher.
func betterForUnit(unit string) model.Better {
	u := strings.ToLower(unit)
	if strings.HasSuffix(u, "/s") || strings.Contains(u, "per_second") || strings.Contains(u, "flops") || strings.Contains(u, "throughput") {
		return model.Higher
	}
	return model.Lower
}
