//go:build ignore

// extract_openapi reduces GitHub's official REST description to the few
// operations perfgate calls, so tests can check every request the fake API
// receives against it without committing the 13 MB spec.
//
//	npm pack @octokit/openapi@23.0.2 && tar xzf octokit-openapi-23.0.2.tgz
//	go run extract_openapi.go package/generated/api.github.com.json > testdata/openapi-ops.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// operations are the operationIds perfgate's GitHub adapter uses.
var operations = []string{
	"issues/list-comments",
	"issues/create-comment",
	"issues/update-comment",
	"issues/delete-comment",
	"users/get-authenticated",
	"repos/create-commit-status",
	// The release workflow (.github/workflows/release.yml).
	"repos/get-release-by-tag",
	"repos/create-release",
	"repos/update-release",
	"repos/upload-release-asset",
	"repos/delete-release-asset",
	// The change-point notices (tracker/action/notify.go).
	"repos/create-commit-comment",
	"repos/list-comments-for-commit",
	"issues/create",
	"issues/list-for-repo",
	// Steering the gate from a pull request (tracker/action/steer.go).
	"pulls/get",
	"repos/get-collaborator-permission-level",
	"reactions/create-for-issue-comment",
	"repos/list-pull-requests-associated-with-commit",
}

type op struct {
	ID     string `json:"operation_id"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// Server is the operation's own origin when it is not the API's
	// (uploads go to https://uploads.github.com).
	Server       string              `json:"server,omitempty"`
	Query        []string            `json:"query,omitempty"`
	BodyRequired []string            `json:"body_required,omitempty"`
	BodyEnums    map[string][]string `json:"body_enums,omitempty"`
	Responses    []string            `json:"responses"`
	// RespRequired lists the required fields of the success response
	// (of each element, for arrays), so the fake answers like GitHub.
	RespRequired []string `json:"response_required,omitempty"`
}

type spec struct {
	Info  map[string]any                       `json:"info"`
	Paths map[string]map[string]map[string]any `json:"paths"`
	Comps map[string]map[string]map[string]any `json:"components"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run extract_openapi.go api.github.com.json")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	check(err)
	var s spec
	check(json.Unmarshal(raw, &s))
	want := map[string]bool{}
	for _, id := range operations {
		want[id] = true
	}
	var ops []op
	for path, methods := range s.Paths {
		for method, o := range methods {
			id, _ := o["operationId"].(string)
			if !want[id] {
				continue
			}
			ops = append(ops, s.extract(id, strings.ToUpper(method), path, o))
			delete(want, id)
		}
	}
	if len(want) > 0 {
		check(fmt.Errorf("operations not found in the spec: %v", want))
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].ID < ops[j].ID })
	out, err := json.MarshalIndent(map[string]any{
		"source":     "npm @octokit/openapi " + fmt.Sprint(s.Info["version"]) + ", generated/api.github.com.json",
		"generator":  "go run extract_openapi.go",
		"operations": ops,
	}, "", "  ")
	check(err)
	fmt.Println(string(out))
}

func (s *spec) extract(id, method, path string, o map[string]any) op {
	r := op{ID: id, Method: method, Path: path, BodyEnums: map[string][]string{}}
	for _, p := range asSlice(o["parameters"]) {
		p := s.resolve(p.(map[string]any))
		if p["in"] == "query" {
			r.Query = append(r.Query, p["name"].(string))
		}
	}
	if srv := asSlice(o["servers"]); len(srv) == 1 {
		r.Server, _ = srv[0].(map[string]any)["url"].(string)
	}
	rb, _ := o["requestBody"].(map[string]any)
	if js, ok := asMap(rb["content"])["application/json"].(map[string]any); ok {
		sch := s.resolve(js["schema"].(map[string]any))
		for _, f := range asSlice(sch["required"]) {
			r.BodyRequired = append(r.BodyRequired, f.(string))
		}
		props, _ := sch["properties"].(map[string]any)
		for name, p := range props {
			if enum, ok := p.(map[string]any)["enum"].([]any); ok {
				for _, v := range enum {
					r.BodyEnums[name] = append(r.BodyEnums[name], fmt.Sprint(v))
				}
			}
		}
	}
	for code, resp := range o["responses"].(map[string]any) {
		r.Responses = append(r.Responses, code)
		if code[0] == '2' {
			r.RespRequired = s.responseRequired(resp.(map[string]any))
		}
	}
	sort.Strings(r.Query)
	sort.Strings(r.BodyRequired)
	sort.Strings(r.Responses)
	sort.Strings(r.RespRequired)
	return r
}

func (s *spec) responseRequired(resp map[string]any) []string {
	resp = s.resolve(resp)
	js, ok := asMap(resp["content"])["application/json"].(map[string]any)
	if !ok {
		return nil
	}
	sch := s.resolve(js["schema"].(map[string]any))
	if sch["type"] == "array" {
		sch = s.resolve(sch["items"].(map[string]any))
	}
	return s.required(sch)
}

// required lists a schema's required fields; for a oneOf, those every
// alternative requires.
func (s *spec) required(sch map[string]any) []string {
	alts, ok := sch["oneOf"].([]any)
	if !ok {
		var req []string
		for _, f := range asSlice(sch["required"]) {
			req = append(req, f.(string))
		}
		return req
	}
	count := map[string]int{}
	for _, a := range alts {
		for _, f := range s.required(s.resolve(a.(map[string]any))) {
			count[f]++
		}
	}
	var req []string
	for f, n := range count {
		if n == len(alts) {
			req = append(req, f)
		}
	}
	return req
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// resolve follows a local "#/components/KIND/NAME" reference.
func (s *spec) resolve(m map[string]any) map[string]any {
	ref, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
	return s.resolve(s.Comps[parts[0]][parts[1]])
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract_openapi:", err)
		os.Exit(1)
	}
}
