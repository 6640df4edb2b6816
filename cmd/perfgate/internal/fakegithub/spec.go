package fakegithub

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// openapiOps is the slice of GitHub's REST description (npm @octokit/openapi)
// covering the operations perfgate calls; extract_openapi.go regenerates it.
//
//go:embed testdata/openapi-ops.json
var openapiOps []byte

// An Operation is one REST operation as GitHub's description defines it.
type Operation struct {
	ID           string              `json:"operation_id"`
	Method       string              `json:"method"`
	Path         string              `json:"path"`
	Server       string              `json:"server"` // its own origin, e.g. uploads.github.com; "" = the API's
	Query        []string            `json:"query"`
	BodyRequired []string            `json:"body_required"`
	BodyEnums    map[string][]string `json:"body_enums"`
	Responses    []string            `json:"responses"`
	RespRequired []string            `json:"response_required"`
}

// Operations returns the operations of the committed spec extract.
func Operations() ([]Operation, error) {
	var doc struct {
		Operations []Operation `json:"operations"`
	}
	if err := json.Unmarshal(openapiOps, &doc); err != nil {
		return nil, fmt.Errorf("testdata/openapi-ops.json: %w", err)
	}
	return doc.Operations, nil
}

// match finds the operation for a method and a path relative to the API
// root (e.g. "/repos/o/r/statuses/abc"), with its path parameters.
func match(ops []Operation, method, path string) (*Operation, map[string]string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := range ops {
		o := &ops[i]
		if o.Method != method {
			continue
		}
		tmpl := strings.Split(strings.Trim(o.Path, "/"), "/")
		if len(tmpl) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for j, t := range tmpl {
			switch {
			case strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}"):
				if segs[j] == "" {
					ok = false
				}
				params[strings.Trim(t, "{}")] = segs[j]
			case t != segs[j]:
				ok = false
			}
		}
		if ok {
			return o, params
		}
	}
	return nil, nil
}

// checkRequest returns what is wrong with a request under GitHub's
// description of op: unknown query parameters, missing required body fields,
// values outside an enum.
func (o *Operation) checkRequest(query url.Values, body []byte) []string {
	var bad []string
	for k := range query {
		if !slices.Contains(o.Query, k) {
			bad = append(bad, fmt.Sprintf("query parameter %q is not defined", k))
		}
	}
	if len(o.BodyRequired) == 0 && len(o.BodyEnums) == 0 {
		return bad
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		return append(bad, fmt.Sprintf("body is not a JSON object: %v", err))
	}
	for _, f := range o.BodyRequired {
		if _, ok := fields[f]; !ok {
			bad = append(bad, fmt.Sprintf("required body field %q is missing", f))
		}
	}
	for f, enum := range o.BodyEnums {
		if v, ok := fields[f]; ok && !slices.Contains(enum, fmt.Sprint(v)) {
			bad = append(bad, fmt.Sprintf("body field %q = %v is not one of %v", f, v, enum))
		}
	}
	return bad
}

// checkResponse returns what is wrong with a successful response the
// fake's own handlers produced: a status code the description does not list,
// or a required field missing. Error responses are not checked: GitHub sends
// 401, 403 and 404 from every endpoint though few list them.
func (o *Operation) checkResponse(code int, body []byte) []string {
	if code/100 != 2 {
		return nil
	}
	if !slices.Contains(o.Responses, fmt.Sprint(code)) {
		return []string{fmt.Sprintf("response status %d is not listed (%v)", code, o.Responses)}
	}
	if len(o.RespRequired) == 0 {
		return nil
	}
	var items []map[string]any
	if err := json.Unmarshal(body, &items); err != nil {
		var one map[string]any
		if err := json.Unmarshal(body, &one); err != nil {
			return []string{fmt.Sprintf("response body is not JSON: %v", err)}
		}
		items = []map[string]any{one}
	}
	var bad []string
	for _, it := range items {
		for _, f := range o.RespRequired {
			if _, ok := it[f]; !ok {
				bad = append(bad, fmt.Sprintf("response lacks required field %q", f))
			}
		}
	}
	return bad
}
