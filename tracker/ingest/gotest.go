package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// ParseGoTest parses `go test -bench` text output. Each result line is one
// sample of its benchmark (so -count N gives N samples) in ns/op, or in the
// unit Options.Metric names (a benchmark without it gets Error); every other
// unit on the line (MB/s, B/op, allocs/op, b.ReportMetric units) becomes a
// metric, the median over the samples. The -GOMAXPROCS suffix moves to
// params["procs"] (and into the name only when one output has several), and
// name/key=value sub-benchmark parts become params too.
// "--- FAIL: BenchmarkX" without results gives a benchmark with Error set.
func ParseGoTest(name string, data []byte, o Options) ([]model.Benchmark, error) {
	p := &gotestParser{file: name, suite: o.suite(GoTest), metric: first(o.Metric, "ns/op"), index: map[string]int{}, procs: map[string]map[string]bool{}, pkgs: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		if err := p.line(line, sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, bad(name, "", "reading: %v", err)
	}
	return p.finish()
}

type gotestRow struct {
	pkg, base, procs string
	b                model.Benchmark
	metrics          map[string][]float64
	lines            map[string][]int // the line of each value, for errors
	metricOrder      []string
}

type gotestParser struct {
	file, suite string
	metric      string // the unit whose values are the samples
	pkg         string
	info        map[string]string
	rows        []*gotestRow
	index       map[string]int // pkg + base + procs → rows
	procs       map[string]map[string]bool
	pkgs        map[string]bool
	failed      []string
}

func (p *gotestParser) line(n int, text string) error {
	if k, v, ok := configLine(text); ok {
		if k == "pkg" {
			p.pkg = v
		}
		if p.info == nil {
			p.info = map[string]string{}
		}
		p.info[k] = v
		return nil
	}
	if rest, ok := strings.CutPrefix(strings.TrimSpace(text), "--- FAIL: Benchmark"); ok {
		p.failed = append(p.failed, "Benchmark"+strings.Fields(rest + " ")[0])
		return nil
	}
	if !strings.HasPrefix(text, "Benchmark") {
		return nil
	}
	f := strings.Fields(text)
	if len(f) < 2 {
		return nil // a benchmark name printed before its log output
	}
	iters, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return nil // not a result line (e.g. "BenchmarkX  \tsome log")
	}
	if iters <= 0 || len(f) < 4 || len(f)%2 != 0 {
		return bad(p.file, lineAt(n), "malformed result line: want name, iterations, then value-unit pairs: %q", text)
	}
	return p.result(n, f[0], f[2:])
}

// configLine recognizes "key: value" lines such as "goos: linux".
func configLine(text string) (key, value string, ok bool) {
	k, v, found := strings.Cut(text, ":")
	if !found || k == "" || strings.ContainsAny(k, " \t") || strings.HasPrefix(k, "Benchmark") || k[0] < 'a' || k[0] > 'z' {
		return "", "", false
	}
	return k, strings.TrimSpace(v), true
}

func (p *gotestParser) result(n int, full string, pairs []string) error {
	base, procs := splitProcs(full)
	key := p.pkg + "\x00" + base + "\x00" + procs
	i, ok := p.index[key]
	if !ok {
		i = len(p.rows)
		p.index[key] = i
		r := &gotestRow{pkg: p.pkg, base: base, procs: procs, metrics: map[string][]float64{}, lines: map[string][]int{}}
		r.b = model.Benchmark{Suite: p.suite, Params: subParams(base), Info: map[string]string{}}
		r.b.Params["procs"] = procs
		p.rows = append(p.rows, r)
		if p.procs[base] == nil {
			p.procs[base] = map[string]bool{}
		}
		p.procs[base][procs] = true
		p.pkgs[p.pkg] = true
	}
	r := p.rows[i]
	for j := 0; j < len(pairs); j += 2 {
		v, err := strconv.ParseFloat(pairs[j], 64)
		unit := pairs[j+1]
		if err != nil || !finite(v) {
			return bad(p.file, lineAt(n), "%q is not a number (before unit %q)", pairs[j], unit)
		}
		if _, seen := r.metrics[unit]; !seen {
			r.metricOrder = append(r.metricOrder, unit)
		}
		r.metrics[unit] = append(r.metrics[unit], v)
		r.lines[unit] = append(r.lines[unit], n)
	}
	return nil
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
	primary := p.metric
	if _, ok := r.metrics[primary]; !ok {
		if p.metric != "ns/op" {
			b.Error = fmt.Sprintf("go test reported no %s for this benchmark (it reported %s)", p.metric, strings.Join(r.metricOrder, ", "))
			b.Unit, b.Better, b.Samples = p.metric, betterForUnit(p.metric), []float64{}
			return nil
		}
		primary = r.metricOrder[0]
	}
	b.Samples = r.metrics[primary]
	b.Unit, b.Better = primary, betterForUnit(primary)
	if primary == "ns/op" {
		b.Unit = "ns"
	}
	for i, v := range b.Samples {
		if v < 0 && (b.Unit == "ns" || strings.Contains(primary, "ns/")) {
			return bad(p.file, lineAt(r.lines[primary][i]), "%v %s: a time cannot be negative", v, primary)
		}
	}
	for _, u := range r.metricOrder {
		if u == primary {
			continue
		}
		if b.Metrics == nil {
			b.Metrics = map[string]float64{}
		}
		b.Metrics[u] = median(append([]float64(nil), r.metrics[u]...))
	}
	for _, k := range []string{"goos", "goarch", "cpu"} {
		if v := p.info[k]; v != "" {
			b.Info[k] = v
		}
	}
	if r.pkg != "" {
		b.Info["pkg"] = r.pkg
	}
	if len(b.Info) == 0 {
		b.Info = nil
	}
	return nil
}
