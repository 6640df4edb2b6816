package resultsjson

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// field describes one allowed key of a JSON object.
type field struct {
	required bool
	check    func(path string, v any) *model.InputError
}

// checkObject checks that v is an object whose keys are all known and whose
// required keys are present, then checks each value (in key order, so errors
// are deterministic).
func checkObject(path string, v any, fields map[string]field) *model.InputError {
	obj, ok := v.(map[string]any)
	if !ok {
		return model.Invalid(path, "must be an object, not %s", jsonType(v))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys { // in order: of two unknown fields, always the same is named
		if _, known := fields[k]; !known {
			return model.Invalid(path+"."+k, "unknown field")
		}
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, present := obj[k]; !present && fields[k].required {
			return model.Invalid(path+"."+k, "required field is missing")
		}
	}
	for _, k := range keys {
		if c := fields[k].check; c != nil {
			if err := c(path+"."+k, obj[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func str(nonEmpty bool, re *regexp.Regexp, what string) func(string, any) *model.InputError {
	return func(path string, v any) *model.InputError {
		s, ok := v.(string)
		if !ok {
			return model.Invalid(path, "must be a string, not %s", jsonType(v))
		}
		if nonEmpty && s == "" {
			return model.Invalid(path, "must not be empty")
		}
		if re != nil && !re.MatchString(s) {
			return model.Invalid(path, "%q is not %s", s, what)
		}
		return nil
	}
}

func oneOf(allowed ...string) func(string, any) *model.InputError {
	return func(path string, v any) *model.InputError {
		s, ok := v.(string)
		if !ok || !slices.Contains(allowed, s) {
			return model.Invalid(path, "must be one of %q, got %s", allowed, show(v))
		}
		return nil
	}
}

func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return jsonType(v)
}

func stringMap(path string, v any) *model.InputError {
	obj, ok := v.(map[string]any)
	if !ok {
		return model.Invalid(path, "must be an object of strings, not %s", jsonType(v))
	}
	for k, x := range obj {
		if _, ok := x.(string); !ok {
			return model.Invalid(path+"."+k, "must be a string, not %s", jsonType(x))
		}
	}
	return nil
}

func number(path string, v any) (float64, *model.InputError) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, model.Invalid(path, "must be a number, not %s", jsonType(v))
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, model.Invalid(path, "number %s is not finite", n)
	}
	return f, nil
}

func numberMap(path string, v any) *model.InputError {
	obj, ok := v.(map[string]any)
	if !ok {
		return model.Invalid(path, "must be an object of numbers, not %s", jsonType(v))
	}
	for k, x := range obj {
		if _, err := number(path+"."+k, x); err != nil {
			return err
		}
	}
	return nil
}

func validateTree(tree any) *model.InputError {
	err := checkObject("$", tree, map[string]field{
		"schema": {true, func(p string, v any) *model.InputError {
			if s, ok := v.(string); !ok || s != model.Schema {
				return model.Invalid(p, "must be %q, got %s", model.Schema, show(v))
			}
			return nil
		}},
		"run":        {true, checkRun},
		"benchmarks": {true, checkBenchmarks},
	})
	return err
}

func checkRun(path string, v any) *model.InputError {
	return checkObject(path, v, map[string]field{
		"id":     {true, str(true, nil, "")},
		"repo":   {true, str(true, model.RepoPattern, "of the form owner/name")},
		"commit": {true, str(true, model.CommitPattern, "a full lowercase hex commit SHA (40 or 64 digits)")},
		"branch": {true, str(true, nil, "")},
		"pr": {false, func(p string, v any) *model.InputError {
			f, err := number(p, v)
			if err != nil {
				return err
			}
			if f != math.Trunc(f) || f < 1 {
				return model.Invalid(p, "must be a positive integer, got %v", f)
			}
			return nil
		}},
		"event":   {true, oneOf(model.Events...)},
		"testbed": {true, str(true, nil, "")},
		"started_at": {true, func(p string, v any) *model.InputError {
			s, ok := v.(string)
			if !ok {
				return model.Invalid(p, "must be an RFC 3339 time string, not %s", jsonType(v))
			}
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				return model.Invalid(p, "%q is not an RFC 3339 time", s)
			}
			return nil
		}},
		"group": {false, str(false, nil, "")},
		"env":   {false, stringMap},
	})
}

func checkBenchmarks(path string, v any) *model.InputError {
	arr, ok := v.([]any)
	if !ok {
		return model.Invalid(path, "must be an array, not %s", jsonType(v))
	}
	seen := map[model.Key]int{}
	for i, b := range arr {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := checkBenchmark(p, b); err != nil {
			return err
		}
		obj := b.(map[string]any)
		k := model.Key{Suite: obj["suite"].(string), Name: obj["name"].(string)}
		if j, dup := seen[k]; dup {
			return model.Invalid(p, "duplicate benchmark %s (first at %s[%d])", k, path, j)
		}
		seen[k] = i
	}
	return nil
}

func checkBenchmark(path string, v any) *model.InputError {
	err := checkObject(path, v, map[string]field{
		"suite":   {true, str(true, nil, "")},
		"name":    {true, str(true, nil, "")},
		"params":  {false, stringMap},
		"unit":    {true, str(true, nil, "")},
		"better":  {true, oneOf(string(model.Lower), string(model.Higher))},
		"samples": {true, nil}, // checked below: needs the unit
		"metrics": {false, numberMap},
		"info":    {false, stringMap},
		"summary_only": {false, func(p string, v any) *model.InputError {
			if _, ok := v.(bool); !ok {
				return model.Invalid(p, "must be a boolean, not %s", jsonType(v))
			}
			return nil
		}},
		"error": {false, str(false, nil, "")},
	})
	if err != nil {
		return err
	}
	obj := v.(map[string]any)
	unit := obj["unit"].(string)
	samples, ok := obj["samples"].([]any)
	if !ok {
		return model.Invalid(path+".samples", "must be an array of numbers, not %s", jsonType(obj["samples"]))
	}
	for i, s := range samples {
		p := fmt.Sprintf("%s.samples[%d]", path, i)
		f, err := number(p, s)
		if err != nil {
			return err
		}
		if !model.ValidSample(unit, f) {
			return model.Invalid(p, "negative time sample %v (unit %s)", f, unit)
		}
	}
	if msg, _ := obj["error"].(string); len(samples) == 0 && msg == "" {
		return model.Invalid(path+".samples", "empty: a benchmark without samples must say why in \"error\"")
	}
	return nil
}
