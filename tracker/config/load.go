package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
)

// Load reads and checks a configuration file. Kernel sources must exist.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: "cannot read the configuration", Err: err}
	}
	c, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, &model.InputError{File: path, Msg: "cannot resolve the configuration's directory", Err: err}
	}
	c.Dir = abs
	for i := range c.Suites {
		if p := c.Suites[i].Python; p != nil {
			for _, m := range p.Modules() {
				if _, err := os.Stat(filepath.Join(c.Dir, m)); err != nil {
					return nil, &model.InputError{File: path, Path: fmt.Sprintf("line %d: suites[%d].python.module", p.line, i),
						Msg: fmt.Sprintf("module %s: %v", m, errors.Unwrap(err))}
				}
			}
		}
		k := c.Suites[i].Kernel
		if k == nil {
			continue
		}
		for _, src := range []string{k.Source, k.referenceSource()} {
			if src == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(c.Dir, src)); err != nil {
				return nil, &model.InputError{File: path, Path: fmt.Sprintf("line %d: suites[%d].kernel", k.line, i),
					Msg: fmt.Sprintf("kernel source %s: %v", src, errors.Unwrap(err))}
			}
		}
	}
	return c, nil
}

var suiteNameRe = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Parse decodes and checks a configuration; name labels errors. Every kernel
// sweep is expanded once so that bad expressions fail here, with their line.
func Parse(name string, data []byte) (*Config, error) {
	d := &decoder{file: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &model.InputError{File: name, Msg: "the configuration is empty (it needs at least suites:)"}
		}
		return nil, &model.InputError{File: name, Msg: "invalid YAML: " + err.Error(), Err: err}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &model.InputError{File: name, Msg: "more than one YAML document (---); perfgate reads one"}
	}
	c := &Config{File: name, Dir: "."}
	version := 1
	root := doc.Content[0]
	err := d.fields(root, "", map[string]handler{
		"version":    d.integer(&version, 1, 1),
		"prepare":    d.strList(&c.Prepare),
		"suites":     func(n *yaml.Node, key string) error { return d.suites(c, n, key) },
		"thresholds": func(n *yaml.Node, key string) error { return d.thresholds(&c.Thresholds, n, key) },
		"ignore":     func(n *yaml.Node, key string) error { return d.globs(&c.Ignore, n, key) },
		"better":     func(n *yaml.Node, key string) error { return d.better(&c.Better, n, key) },
		"baseline":   func(n *yaml.Node, key string) error { return d.baseline(&c.Baseline, n, key) },
	})
	if err != nil {
		return nil, err
	}
	if len(c.Suites) == 0 {
		return nil, d.errf(root, "suites", "at least one suite is required")
	}
	c.warnings = d.warnings
	return c, nil
}

func (d *decoder) suites(c *Config, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	if err != nil {
		return err
	}
	seen := map[string]int{}
	for i, it := range items {
		s, err := d.suite(it, fmt.Sprintf("%s[%d]", key, i))
		if err != nil {
			return err
		}
		if prev, dup := seen[s.Name]; dup {
			return d.errf(it, fmt.Sprintf("%s[%d].name", key, i), "suite %q is already declared on line %d", s.Name, prev)
		}
		seen[s.Name] = s.Line
		c.Suites = append(c.Suites, *s)
	}
	return nil
}

func (d *decoder) suite(n *yaml.Node, key string) (*Suite, error) {
	s := &Suite{Line: n.Line}
	kinds := 0
	err := d.fields(n, key, map[string]handler{
		"name": d.str(&s.Name),
		"command": func(v *yaml.Node, k string) error {
			kinds++
			s.Command = &Command{Repeat: 1}
			return d.command(s.Command, v, k)
		},
		"kernel": func(v *yaml.Node, k string) error {
			kinds++
			var err error
			s.Kernel, err = d.kernel(v, k)
			return err
		},
		"builtin": func(v *yaml.Node, k string) error {
			kinds++
			s.Builtin = &Builtin{}
			return d.builtin(s.Builtin, v, k)
		},
		"python": func(v *yaml.Node, k string) error {
			kinds++
			var err error
			s.Python, err = d.python(v, k)
			return err
		},
	})
	switch {
	case err != nil:
		return nil, err
	case s.Name == "":
		return nil, d.errf(n, key+".name", "a suite needs a name")
	case !suiteNameRe.MatchString(s.Name):
		return nil, d.errf(n, key+".name", "%q: use letters, digits, '_', '.' and '-'", s.Name)
	case kinds != 1:
		return nil, d.errf(n, key, "a suite needs exactly one of command:, kernel:, builtin:, python:")
	}
	if s.Kernel != nil && s.Kernel.Name == "" {
		s.Kernel.Name = s.Kernel.Entry
	}
	return s, nil
}

// MaxRepeat bounds a command suite's repeat:.
const MaxRepeat = 1000

func (d *decoder) command(c *Command, n *yaml.Node, key string) error {
	var better string
	err := d.fields(n, key, map[string]handler{
		"run":     d.str(&c.Run),
		"dir":     d.str(&c.Dir),
		"format":  d.oneOf(&c.Format, ingest.Formats...),
		"output":  d.str(&c.Output),
		"repeat":  d.integer(&c.Repeat, 1, MaxRepeat),
		"timeout": d.duration(&c.Timeout),
		"env":     func(v *yaml.Node, k string) error { return d.env(&c.Env, v, k) },
		"unit":    d.str(&c.Unit),
		"better":  d.oneOf(&better, string(model.Lower), string(model.Higher)),
		"metric":  d.str(&c.Metric),
	})
	c.Better = model.Better(better)
	switch {
	case err != nil:
		return err
	case c.Run == "":
		return d.errf(n, key+".run", "a command suite needs run: (the shell command)")
	case c.Format == "":
		return d.errf(n, key+".format", "a command suite needs format: (one of %v)", ingest.Formats)
	case c.Metric != "" && c.Format != ingest.GoTest:
		return d.errf(n, key+".metric", "metric: applies to format gotest only")
	case (c.Unit != "" || c.Better != "") && c.Format != ingest.JSONSamples:
		return d.errf(n, key, "unit: and better: apply to format json-samples only (use the top-level better: to override a direction)")
	case filepath.IsAbs(c.Dir):
		// Relative to the configuration's directory, and confined at run
		// time to its checkout (suites.Command.Root).
		return d.errf(n, key+".dir", "%q: must be a relative path (to the configuration's directory), not absolute", c.Dir)
	case c.Output != "" && !filepath.IsLocal(c.Output):
		// perfgate removes a stale output before each run: a path out of the
		// command's directory would let a config delete any file.
		return d.errf(n, key+".output", "%q: must be a relative path inside the command's directory (no '..', not absolute)", c.Output)
	case c.Format == ingest.Criterion && c.Output == "":
		return d.errf(n, key+".output", "criterion writes files, not standard output: set output: to its directory (e.g. target/criterion)")
	}
	return nil
}

var envKeyRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d *decoder) env(dst *[]string, n *yaml.Node, key string) error {
	ks, vs, err := d.pairs(n, key)
	if err != nil {
		return err
	}
	for i, k := range ks {
		if !envKeyRe.MatchString(k.Value) {
			return d.errf(k, key+"."+k.Value, "not a valid environment variable name")
		}
		v, err := d.scalar(vs[i], key+"."+k.Value)
		if err != nil {
			return err
		}
		*dst = append(*dst, k.Value+"="+v)
	}
	return nil
}

// builtin reads a builtin suite. Its keys are those of perfgate run's
// flags that runner.RunSettings gives a Config key, and its sizes are
// kernels.Sizes, which config may not import: TestRunSettingsTable in
// cmd/perfgate holds the keys and the sizes to both.
func (d *decoder) builtin(b *Builtin, n *yaml.Node, key string) error {
	err := d.fields(n, key, map[string]handler{
		"suite":    d.str(&b.Suite),
		"size":     d.oneOf(&b.Size, "small", "medium", "large", "ci"),
		"dtypes":   d.strList(&b.DTypes),
		"filter":   d.regexp(&b.Filter),
		"fast":     d.boolean(&b.Fast),
		"max_time": d.duration(&b.MaxTime),
	})
	if err == nil && b.Suite == "" {
		err = d.errf(n, key+".suite", "a builtin suite needs suite: (see perfgate run %s)", model.Flag("list"))
	}
	return err
}

func (d *decoder) thresholds(t *Thresholds, n *yaml.Node, key string) error {
	return d.fields(n, key, map[string]handler{
		"default":     d.threshold(&t.Default),
		"alpha":       d.number(&t.Alpha),
		"correction":  d.oneOf(&t.Correction, "bh", "holm", "none"),
		"min_samples": d.bounded(&t.MinSamples, "min-samples"),
		// The policies are compare.InconclusivePolicies, which config may not import.
		"inconclusive": d.oneOf(&t.Inconclusive, "neutral", "pass", "fail"),
		"benchmarks": func(v *yaml.Node, k string) error {
			ks, vs, err := d.pairs(v, k)
			for i := 0; err == nil && i < len(ks); i++ {
				var o ThresholdOverride
				o.Glob, err = d.glob(ks[i], k+"."+ks[i].Value)
				if err == nil {
					err = d.threshold(&o.Threshold)(vs[i], k+"."+ks[i].Value)
				}
				t.Overrides = append(t.Overrides, o)
			}
			return err
		},
	})
}

func (d *decoder) globs(dst *[]string, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	for i := 0; err == nil && i < len(items); i++ {
		var g string
		g, err = d.glob(items[i], fmt.Sprintf("%s[%d]", key, i))
		*dst = append(*dst, g)
	}
	return err
}

func (d *decoder) better(dst *[]BetterOverride, n *yaml.Node, key string) error {
	ks, vs, err := d.pairs(n, key)
	for i := 0; err == nil && i < len(ks); i++ {
		var o BetterOverride
		var b string
		o.Glob, err = d.glob(ks[i], key+"."+ks[i].Value)
		if err == nil {
			err = d.oneOf(&b, string(model.Lower), string(model.Higher))(vs[i], key+"."+ks[i].Value)
		}
		o.Better = model.Better(b)
		*dst = append(*dst, o)
	}
	return err
}

func (d *decoder) baseline(b *Baseline, n *yaml.Node, key string) error {
	jobs := d.bounded(&b.Jobs, "baseline-jobs")
	return d.fields(n, key, map[string]handler{
		"branch":  d.str(&b.Branch),
		"jobs":    jobs,
		"runs":    d.renamed(n, "baseline-jobs", jobs),
		"history": d.bounded(&b.History, "history"),
		"testbed": d.str(&b.Testbed),
	})
}
