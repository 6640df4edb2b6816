package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfgate/perfgate/tracker/model"
)

// ParseGoTest parses `go test -bench` text output with the Go benchmark
// format's reference reader (golang.org/x/perf/benchfmt, what benchstat
// reads). Each result line is one sample of its benchmark (so -count N gives
// N samples) in ns/op, or in the unit Options.Metric names (a benchmark
// without it gets Error); every other unit on the line (MB/s, B/op,
// allocs/op, b.ReportMetric units) becomes a metric, the median over the
// samples. Values keep the units go test printed (benchfmt's tidied units,
// sec/op for ns/op, are not used). The -GOMAXPROCS suffix moves to
// params["procs"] (and into the name only when one output has several),
// and name/key=value sub-benchmark parts become params too.
// "--- FAIL: BenchmarkX" without results gives a benchmark with Error set.
func ParseGoTest(name string, data []byte, o Options) ([]model.Benchmark, error) {
	p := &gotestParser{file: name, suite: o.suite(GoTest), metric: first(o.Metric, "ns/op"), index: map[string]int{},
		procs: map[string]map[string]bool{}, pkgs: map[string]bool{}}
	data, err := withoutLongLines(name, data)
	if err != nil {
		return nil, err
	}
	r := benchfmt.NewReader(bytes.NewReader(data), name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			if err := p.result(rec); err != nil {
				return nil, err
			}
		case *benchfmt.SyntaxError:
			// A line that starts with "Benchmark" but has no iteration
			// count is a name printed before log output, not a result.
			if !strings.HasPrefix(rec.Msg, "missing iteration count") && !strings.HasPrefix(rec.Msg, "parsing iteration count") {
				return nil, bad(name, lineAt(rec.Line), "malformed result line: %s", rec.Msg)
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, bad(name, "", "reading: %v", err)
	}
	p.failed = failedBenchmarks(data)
	return p.finish()
}

// maxLine is the longest line benchfmt's reader takes (bufio.Scanner's
// default): past it, it stops with "token too long" and no line number.
const maxLine = bufio.MaxScanTokenSize - 1

// withoutLongLines returns data with the lines longer than maxLine
// emptied (log output a benchmark printed: go test's own lines are short),
// line numbers kept; a result line that long is an error naming its line.
// data itself is returned when no line is that long.
func withoutLongLines(name string, data []byte) ([]byte, error) {
	var out []byte
	line, start := 1, 0
	for start < len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data) - start
		}
		if end > maxLine {
			if bytes.HasPrefix(bytes.TrimSpace(data[start:start+end]), []byte("Benchmark")) {
				return nil, bad(name, lineAt(line), "a result line of %d bytes: longer than go test writes (at most %d)", end, maxLine)
			}
			if out == nil {
				out = append(make([]byte, 0, len(data)), data[:start]...)
			}
		} else if out != nil {
			out = append(out, data[start:start+end]...)
		}
		if start+end < len(data) && out != nil {
			out = append(out, '\n')
		}
		start += end + 1
		line++
	}
	if out == nil {
		return data, nil
	}
	return out, nil
}

// failedBenchmarks returns the benchmarks of "--- FAIL: BenchmarkX" lines,
// which benchfmt skips (they are neither results nor configuration).
func failedBenchmarks(data []byte) []string {
	const marker = "--- FAIL: Benchmark"
	if !bytes.Contains(data, []byte(marker)) {
		return nil
	}
	var failed []string
	for line := range strings.Lines(string(data)) {
		// "--- FAIL: BenchmarkX (0.00s)"; a benchmark may be named just
		// Benchmark ("--- FAIL: Benchmark", which indexed an empty list).
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			if f := strings.Fields(rest); len(f) > 0 && strings.HasPrefix(f[0], "Benchmark") {
				failed = append(failed, f[0])
			}
		}
	}
	return failed
}

// A gotestRow collects one benchmark's values, unit by unit in first-seen
// order (a handful of units: slices beat maps here).
type gotestRow struct {
	pkg, base, procs string
	b                model.Benchmark
	units            []string
	values           [][]float64
	negLine          []int // the first line with a negative value of each unit, or 0
}

type gotestParser struct {
	file, suite string
	metric      string // the unit whose values are the samples
	rows        []*gotestRow
	index       map[string]int // pkg + base + procs → rows
	procs       map[string]map[string]bool
	pkgs        map[string]bool
	failed      []string
	key         []byte // scratch for index lookups
	pkg         string // the last pkg: config line seen, kept to save a string per line
}

func (p *gotestParser) result(rec *benchfmt.Result) error {
	_, line := rec.Pos()
	if rec.Iters <= 0 {
		return bad(p.file, lineAt(line), "malformed result line: iteration count %d is not positive", rec.Iters)
	}
	pkg := p.pkgOf(rec)
	full := rec.Name.Full()
	p.key = append(append(append(p.key[:0], pkg...), 0), full...)
	i, ok := p.index[string(p.key)]
	if !ok {
		i = p.newRow(pkg, "Benchmark"+string(full), rec)
		p.index[string(p.key)] = i
	}
	row := p.rows[i]
	for _, v := range rec.Values {
		val, unit := v.Value, v.Unit
		if v.OrigUnit != "" { // benchfmt tidied it (ns/op → sec/op): keep what go test printed
			val, unit = v.OrigValue, v.OrigUnit
		}
		if !finite(val) {
			return bad(p.file, lineAt(line), "%v is not a finite number (unit %q)", val, unit)
		}
		j := row.unit(unit)
		row.values[j] = append(row.values[j], val)
		if val < 0 && row.negLine[j] == 0 {
			row.negLine[j] = line
		}
	}
	return nil
}

// pkgOf returns the value of the pkg configuration key of rec.
func (p *gotestParser) pkgOf(rec *benchfmt.Result) string {
	i, ok := rec.ConfigIndex("pkg")
	if !ok {
		return ""
	}
	if v := rec.Config[i].Value; string(v) != p.pkg {
		p.pkg = string(v)
	}
	return p.pkg
}

// newRow adds the row of a benchmark seen for the first time.
func (p *gotestParser) newRow(pkg, full string, rec *benchfmt.Result) int {
	base, procs := splitProcs(full)
	r := &gotestRow{pkg: pkg, base: base, procs: procs}
	r.b = model.Benchmark{Suite: p.suite, Params: subParams(base), Info: map[string]string{}}
	r.b.Params["procs"] = procs
	for _, k := range []string{"goos", "goarch", "cpu"} {
		if v := rec.GetConfig(k); v != "" {
			r.b.Info[k] = v
		}
	}
	p.rows = append(p.rows, r)
	if p.procs[base] == nil {
		p.procs[base] = map[string]bool{}
	}
	p.procs[base][procs] = true
	p.pkgs[pkg] = true
	return len(p.rows) - 1
}

// unit returns the position of unit in the row, adding it when new.
func (r *gotestRow) unit(u string) int {
	for i, have := range r.units {
		if have == u {
			return i
		}
	}
	r.units = append(r.units, u)
	r.values = append(r.values, nil)
	r.negLine = append(r.negLine, 0)
	return len(r.units) - 1
}

// splitProcs splits "BenchmarkX/a=1-8" into "BenchmarkX/a=1" and "8".
func splitProcs(name string) (string, string) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name, "1" // go test leaves the suffix off when GOMAXPROCS is 1
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name, "1"
	}
	return name[:i], name[i+1:]
}

// subParams extracts key=value parts of a sub-benchmark name.
func subParams(name string) map[string]string {
	params := map[string]string{}
	for _, part := range strings.Split(name, "/")[1:] {
		if k, v, ok := strings.Cut(part, "="); ok && k != "" {
			params[k] = v
		}
	}
	return params
}

func (p *gotestParser) finish() ([]model.Benchmark, error) {
	out := make([]model.Benchmark, 0, len(p.rows)+len(p.failed))
	have := map[string]bool{}
	for _, r := range p.rows {
		b := r.b
		b.Name = r.base
		if len(p.procs[r.base]) > 1 {
			b.Name += "/procs=" + r.procs
		}
		if len(p.pkgs) > 1 {
			b.Name = r.pkg + "." + b.Name
		}
		if err := p.fillSamples(&b, r); err != nil {
			return nil, err
		}
		have[r.base] = true
		out = append(out, b)
	}
	for _, f := range p.failed {
		base, _ := splitProcs(f)
		if !have[base] {
			have[base] = true
			out = append(out, model.Benchmark{Suite: p.suite, Name: base, Unit: "ns", Better: model.Lower, Samples: []float64{}, Error: "go test reported --- FAIL for this benchmark"})
		}
	}
	return out, nil
}

func (p *gotestParser) fillSamples(b *model.Benchmark, r *gotestRow) error {
	primary := -1
	for i, u := range r.units {
		if u == p.metric {
			primary = i
		}
	}
	if primary < 0 {
		if p.metric != "ns/op" {
			b.Error = fmt.Sprintf("go test reported no %s for this benchmark (it reported %s)", p.metric, strings.Join(r.units, ", "))
			b.Unit, b.Better, b.Samples = p.metric, betterForUnit(p.metric), []float64{}
			return nil
		}
		primary = 0
	}
	unit := r.units[primary]
	b.Samples = r.values[primary]
	b.Unit, b.Better = unit, betterForUnit(unit)
	if unit == "ns/op" {
		b.Unit = "ns"
	}
	if line := r.negLine[primary]; line > 0 && (b.Unit == "ns" || strings.Contains(unit, "ns/")) {
		v := b.Samples[0]
		for _, x := range b.Samples {
			if x < 0 {
				v = x
				break
			}
		}
		return bad(p.file, lineAt(line), "%v %s: a time cannot be negative", v, unit)
	}
	for i, u := range r.units {
		if i == primary {
			continue
		}
		if b.Metrics == nil {
			b.Metrics = map[string]float64{}
		}
		b.Metrics[u] = median(r.values[i]) // sorts them: they are not kept
	}
	if r.pkg != "" {
		b.Info["pkg"] = r.pkg
	}
	if len(b.Info) == 0 {
		b.Info = nil
	}
	return nil
}
