package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// decodeJSON decodes one JSON document into v. Syntax errors name the line
// and column; type errors name the JSON path and line.
func decodeJSON(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return &model.InputError{File: name, Path: resultsjson.Position(data, dec.InputOffset()), Msg: "trailing data after the JSON document"}
	}
	return nil
}

func jsonError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &model.InputError{File: name, Path: resultsjson.Position(data, se.Offset-1), Msg: "invalid JSON: " + se.Error(), Err: err}
	case errors.As(err, &te):
		path := "$"
		if te.Field != "" {
			path = "$." + te.Field
		}
		line, _ := resultsjson.LineCol(data, te.Offset)
		return &model.InputError{File: name, Path: fmt.Sprintf("%s (near line %d)", path, line),
			Msg: fmt.Sprintf("must be %s, not a JSON %s", goTypeName(te.Type.Kind().String()), te.Value), Err: err}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &model.InputError{File: name, Msg: "invalid JSON: unexpected end of input", Err: err}
	}
	return &model.InputError{File: name, Msg: "invalid JSON: " + err.Error(), Err: err}
}

func goTypeName(kind string) string {
	switch kind {
	case "float64", "float32", "int", "int64", "uint64", "int32":
		return "a number"
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	case "bool":
		return "a boolean"
	}
	return kind
}

// finite reports whether v is a usable measurement.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkSample checks one sample value for unit at path.
func checkSample(file, path, unit string, v float64) error {
	if !model.ValidSample(unit, v) {
		return bad(file, path, "%v is not a valid %s measurement", v, unit)
	}
	return nil
}
