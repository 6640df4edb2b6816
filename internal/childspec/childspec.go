// Package childspec encodes what a perfgate process hands a child process
// of itself (a round's suite, a GPU's worker): a struct of settings as
// versioned JSON, holding only the fields that are not zero, so that the
// child decodes it over its own defaults as it would parse flags given
// over flag defaults. A new field of the struct travels without code; a
// field tagged `json:"-"` stays behind (what the child finds itself).
//
// How the spec reaches the child (an argument, standard input) is the
// command's business; this package neither starts processes nor knows a
// flag. It imports only the standard library.
package childspec

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// An envelope is the JSON of a spec: its version and its non-zero fields.
type envelope struct {
	Version int             `json:"version"`
	Spec    json.RawMessage `json:"spec"`
}

// Encode returns v, a struct, as a spec of the given version: nested
// structs as objects of their non-zero fields, embedded ones flattened.
func Encode(version int, v any) ([]byte, error) {
	m, err := fields(reflect.ValueOf(v))
	if err != nil {
		return nil, err
	}
	spec, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return json.Marshal(envelope{Version: version, Spec: spec})
}

// Decode reads a spec of the given version into v, a pointer to a struct
// that holds the child's defaults: a field the spec leaves out keeps its
// default. A spec of another version, or with a field v lacks, is an
// error: parent and child are one binary, so either is a bug.
func Decode(data []byte, version int, v any) error {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return fmt.Errorf("child spec: %w", err)
	}
	if env.Version != version {
		return fmt.Errorf("child spec: version %d, this perfgate reads version %d", env.Version, version)
	}
	dec = json.NewDecoder(bytes.NewReader(env.Spec))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("child spec: %w", err)
	}
	return nil
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// fields maps the JSON names of the non-zero fields of the struct v to
// their values, recursing into structs that do not encode themselves.
func fields(v reflect.Value) (map[string]any, error) {
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("childspec: %s is not a struct", v.Type())
	}
	out := map[string]any{}
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || fv.IsZero() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		nested := fv.Kind() == reflect.Struct && !f.Type.Implements(jsonMarshaler) && !f.Type.Implements(textMarshaler) &&
			!reflect.PointerTo(f.Type).Implements(jsonMarshaler) && !reflect.PointerTo(f.Type).Implements(textMarshaler)
		switch {
		case nested && f.Anonymous:
			m, err := fields(fv)
			if err != nil {
				return nil, err
			}
			for k, x := range m {
				out[k] = x
			}
		case nested:
			m, err := fields(fv)
			if err != nil {
				return nil, err
			}
			out[name] = m
		default:
			out[name] = fv.Interface()
		}
	}
	return out, nil
}
