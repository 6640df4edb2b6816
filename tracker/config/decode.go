package config

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// decoder turns yaml.Nodes into values, reporting problems as InputErrors
// that carry the file, the line and the key path (e.g. suites[1].command.repeat),
// and deprecated keys as warnings.
type decoder struct {
	file     string
	warnings []string
}

func (d *decoder) errf(n *yaml.Node, key, format string, args ...any) error {
	return &model.InputError{File: d.file, Path: fmt.Sprintf("line %d: %s", n.Line, key), Msg: fmt.Sprintf(format, args...)}
}

// resolve follows YAML aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "empty"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an alias"
}

// A handler decodes the value of one key.
type handler func(v *yaml.Node, key string) error

// fields decodes a mapping whose keys must all be in handlers; handlers run in
// document order. Unknown and repeated keys are errors.
func (d *decoder) fields(n *yaml.Node, key string, handlers map[string]handler) error {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return d.errf(n, key, "must be a mapping, not %s", kindName(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		sub := k.Value
		if key != "" {
			sub = key + "." + k.Value
		}
		h, ok := handlers[k.Value]
		if !ok {
			return d.errf(k, sub, "unknown key (allowed: %s)", strings.Join(slices.Sorted(maps.Keys(handlers)), ", "))
		}
		if seen[k.Value] {
			return d.errf(k, sub, "key given twice")
		}
		seen[k.Value] = true
		if err := h(v, sub); err != nil {
			return err
		}
	}
	return nil
}

// pairs returns a mapping's keys and values in document order.
func (d *decoder) pairs(n *yaml.Node, key string) ([]*yaml.Node, []*yaml.Node, error) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, nil, d.errf(n, key, "must be a mapping, not %s", kindName(n))
	}
	var ks, vs []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if slices.ContainsFunc(ks, func(k *yaml.Node) bool { return k.Value == n.Content[i].Value }) {
			return nil, nil, d.errf(n.Content[i], key+"."+n.Content[i].Value, "key given twice")
		}
		ks, vs = append(ks, n.Content[i]), append(vs, resolve(n.Content[i+1]))
	}
	return ks, vs, nil
}

func (d *decoder) list(n *yaml.Node, key string) ([]*yaml.Node, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, key, "must be a list, not %s", kindName(n))
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = resolve(c)
	}
	return out, nil
}

func (d *decoder) scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errf(n, key, "must be a value, not %s", kindName(n))
	}
	return n.Value, nil
}

func (d *decoder) str(dst *string) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err == nil && s == "" {
			err = d.errf(n, key, "must not be empty")
		}
		*dst = s
		return err
	}
}

func (d *decoder) oneOf(dst *string, allowed ...string) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err == nil && !slices.Contains(allowed, s) {
			err = d.errf(n, key, "%q is not one of %s", s, strings.Join(allowed, ", "))
		}
		*dst = s
		return err
	}
}

func (d *decoder) strList(dst *[]string) handler {
	return func(n *yaml.Node, key string) error {
		items, err := d.list(n, key)
		if err != nil {
			return err
		}
		for i, it := range items {
			s, err := d.scalar(it, fmt.Sprintf("%s[%d]", key, i))
			if err != nil {
				return err
			}
			*dst = append(*dst, s)
		}
		return nil
	}
}

func (d *decoder) boolean(dst *bool) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		b, perr := strconv.ParseBool(s)
		if perr != nil {
			return d.errf(n, key, "must be true or false, not %q", s)
		}
		*dst = b
		return nil
	}
}

func (d *decoder) integer(dst *int, lo, hi int) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		v, perr := strconv.Atoi(s)
		if perr != nil || v < lo || v > hi {
			return d.errf(n, key, "must be a whole number from %d to %d, not %q", lo, hi, s)
		}
		*dst = v
		return nil
	}
}

// bounded reads a whole number in the range of the judging setting named
// (compare.Lookup): the file and the flags accept the same values.
func (d *decoder) bounded(dst *int, setting string) handler {
	lo, hi := compare.Lookup(setting).IntRange()
	return d.integer(dst, lo, hi)
}

// renamed reads the old key of the renamed judging setting named
// (compare.Lookup: its Old.Config) with h, the new key's handler, and
// notes the deprecation. The mapping parent giving both keys is an error.
func (d *decoder) renamed(parent *yaml.Node, setting string, h handler) handler {
	s := compare.Lookup(setting)
	_, newKey, _ := strings.Cut(s.Config, ".")
	return func(n *yaml.Node, key string) error {
		for i := 0; i+1 < len(parent.Content); i += 2 {
			if parent.Content[i].Value == newKey {
				return d.errf(n, key, "is the deprecated name of %s; give %s only", s.Config, s.Config)
			}
		}
		d.warnings = append(d.warnings, fmt.Sprintf("%s: line %d: %s is deprecated: name it %s", d.file, n.Line, key, s.Config))
		return h(n, key)
	}
}

func (d *decoder) number(dst *float64) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		v, perr := strconv.ParseFloat(s, 64)
		if perr != nil {
			return d.errf(n, key, "must be a number, not %q", s)
		}
		*dst = v
		return nil
	}
}

func (d *decoder) duration(dst *time.Duration) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		v, perr := time.ParseDuration(s)
		if perr != nil || v <= 0 {
			return d.errf(n, key, "must be a positive duration such as 90s or 10m, not %q", s)
		}
		*dst = v
		return nil
	}
}

// fraction accepts "10%" or a bare fraction such as 0.10.
// threshold reads a threshold by compare.ParseThreshold, the rule of the
// command line too ("10%" and "10" are ten percent), into a fraction. Zero
// is refused: in the file it would mean "perfgate's default".
func (d *decoder) threshold(dst *float64) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		v, perr := compare.ParseThreshold(s)
		if perr == nil && v == 0 {
			perr = fmt.Errorf("must be above 0%%, not %q", s)
		}
		if perr != nil {
			return d.errf(n, key, "%v", perr)
		}
		*dst = v
		return nil
	}
}

func (d *decoder) glob(n *yaml.Node, key string) (string, error) {
	s, err := d.scalar(n, key)
	if err != nil {
		return "", err
	}
	if _, err := path.Match(s, ""); err != nil {
		return "", d.errf(n, key, "bad glob %q: %v", s, err)
	}
	return s, nil
}

func (d *decoder) regexp(dst *string) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		if _, err := regexp.Compile(s); err != nil {
			return d.errf(n, key, "bad regular expression: %v", err)
		}
		*dst = s
		return nil
	}
}
