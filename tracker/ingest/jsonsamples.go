package ingest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// ParseJSONSamples parses the json-samples format, either a plain map
//
//	{"matmul/4096": [1.92, 1.95, 1.90], "softmax/1M": [0.21, 0.22]}
//
// whose unit and direction come from Options (--unit, --better), or the
// self-describing form
//
//	{"unit": "ms", "better": "lower",
//	 "benchmarks": {"matmul/4096": [1.92, 1.95],
//	                "tflops": {"samples": [512, 515], "unit": "TFLOP/s", "better": "higher",
//	                           "params": {"n": "4096"}, "summary_only": false}}}
//
// where a benchmark's own unit/better override the file's, which override
// Options. Better defaults to higher for rates (…/s) and lower otherwise.
// Benchmarks come out sorted by name. A key given twice in any object is
// an error (encoding/json kept the last one and dropped the other's
// samples unseen), and so is a number beyond a float64's range. The
// document is read in place (jscan): a 100 MB file is held once, with its
// samples.
func ParseJSONSamples(name string, data []byte, o Options) ([]model.Benchmark, error) {
	spec, err := jsonSamplesSpec(name, data)
	if err != nil {
		return nil, err
	}
	s := &jscan{file: name, data: data}
	var raw []jsonBench
	var unit, better string
	bench := func(key string) error {
		b, err := s.jsonBench(key)
		raw = append(raw, b)
		return err
	}
	if !spec {
		err = s.object("$", bench)
	} else {
		err = s.object("$", func(key string) error {
			switch key {
			case "unit":
				return s.optString("$.unit", &unit)
			case "better":
				return s.optString("$.better", &better)
			case "benchmarks":
				return s.object("$.benchmarks", bench)
			}
			return s.skip("$." + key)
		})
	}
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(raw, func(a, b jsonBench) int { return strings.Compare(a.b.Name, b.b.Name) })
	out := make([]model.Benchmark, 0, len(raw))
	for i := range raw {
		b, err := raw[i].finish(name, first(unit, o.Unit), first(better, string(o.Better)), o.suite(JSONSamples))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// jsonSamplesSpec reports whether data is the self-describing form: a
// top-level "benchmarks" whose value is an object. It reads the whole
// document, so syntax errors and keys given twice are found here.
func jsonSamplesSpec(name string, data []byte) (bool, error) {
	s := &jscan{file: name, data: data}
	spec := false
	err := s.object("$", func(key string) error {
		if key == "benchmarks" && s.peek() == '{' {
			spec = true
		}
		return s.skip(fmt.Sprintf("$[%q]", key))
	})
	if err == nil {
		err = s.end()
	}
	return spec, err
}

// A jsonBench is one benchmark as read, before the file's unit and
// direction apply.
type jsonBench struct {
	b            model.Benchmark // Unit and Better: the benchmark's own
	better, path string
}

// jsonBench reads the benchmark key: an array of samples, or an object
// with samples, unit, better, params, metrics and summary_only (other keys
// are skipped, as before).
func (s *jscan) jsonBench(key string) (jsonBench, error) {
	jb := jsonBench{b: model.Benchmark{Name: key}, path: fmt.Sprintf("$[%q]", key)}
	b := &jb.b
	switch s.peek() {
	case '[':
		var err error
		b.Samples, err = s.samples(jb.path)
		return jb, err
	case '{':
	default:
		return jb, bad(s.file, jb.path, "must be an array of numbers or {\"samples\": [...], ...}, not %s", kind(s.peek()))
	}
	err := s.object(jb.path, func(field string) error {
		path := jb.path + "." + field
		var err error
		switch field {
		case "samples":
			b.Samples, err = s.samples(jb.path)
		case "unit":
			err = s.optString(path, &b.Unit)
		case "better":
			err = s.optString(path, &jb.better)
		case "params":
			err = s.params(path, &b.Params)
		case "metrics":
			err = s.metrics(path, &b.Metrics)
		case "summary_only":
			var v string
			if v, err = s.literal(); err == nil && v == "null" {
				v = "false"
			}
			b.SummaryOnly = v == "true"
		default:
			err = s.skip(path)
		}
		return err
	})
	return jb, err
}

// finish applies the file's unit and direction (fileUnit, fileBetter) and
// checks the benchmark.
func (jb *jsonBench) finish(file, fileUnit, fileBetter, suite string) (model.Benchmark, error) {
	b, path := jb.b, jb.path
	b.Suite, b.Unit = suite, first(b.Unit, fileUnit)
	if b.Name == "" {
		return b, bad(file, path, "a benchmark name must not be empty")
	}
	if b.Unit == "" {
		return b, bad(file, path, "no unit: give %s, or write {\"unit\": ..., \"benchmarks\": {...}}", model.Flag("unit"))
	}
	b.Better = betterForUnit(b.Unit)
	if bs := first(jb.better, fileBetter); bs != "" {
		var ok bool
		if b.Better, ok = model.ParseBetter(bs); !ok {
			return b, bad(file, path, "better: %q is not lower or higher", bs)
		}
	}
	if len(b.Samples) == 0 {
		return b, bad(file, path, "no samples")
	}
	for i, v := range b.Samples {
		if !model.ValidSample(b.Unit, v) { // the path is built only then: millions of samples
			return b, checkSample(file, at(path, i)(), b.Unit, v)
		}
	}
	return b, nil
}

// samples reads an array of numbers (null: none) into a slice of its
// exact length.
func (s *jscan) samples(path string) ([]float64, error) {
	if s.null() {
		return nil, nil
	}
	if c := s.peek(); c != '[' {
		return nil, bad(s.file, path, "must be an array of numbers, not %s", kind(c))
	}
	out := make([]float64, 0, s.elements())
	err := s.array(path, func(i int) error {
		if c := s.peek(); c != '-' && (c < '0' || c > '9') {
			return bad(s.file, path, "must be an array of numbers (element %d is %s)", i, kind(c))
		}
		v, err := s.float(at(path, i))
		out = append(out, v)
		return err
	})
	return out, err
}

// optString reads a string, or null (leaving *dst as it is).
func (s *jscan) optString(path string, dst *string) error {
	if s.null() {
		return nil
	}
	if c := s.peek(); c != '"' {
		return bad(s.file, path, "must be a string, not %s", kind(c))
	}
	v, err := s.str()
	*dst = v
	return err
}

// params reads an object of strings (null: none).
func (s *jscan) params(path string, dst *map[string]string) error {
	if s.null() {
		return nil
	}
	*dst = map[string]string{}
	return s.object(path, func(key string) error {
		var v string
		err := s.optString(path+"."+key, &v)
		(*dst)[key] = v
		return err
	})
}

// metrics reads an object of numbers (null: none).
func (s *jscan) metrics(path string, dst *map[string]float64) error {
	if s.null() {
		return nil
	}
	*dst = map[string]float64{}
	return s.object(path, func(key string) error {
		if s.null() {
			return nil
		}
		v, err := s.float(func() string { return path + "." + key })
		(*dst)[key] = v
		return err
	})
}
