package resultsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/perfgate/perfgate/tracker/model"
)

// mutate returns the valid fixture with one change applied to its generic tree.
func mutate(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func run(doc map[string]any) map[string]any { return doc["run"].(map[string]any) }
func bench(doc map[string]any, i int) map[string]any {
	return doc["benchmarks"].([]any)[i].(map[string]any)
}

// invalidCases are documents the loader must reject, with the JSON path it must name.
var invalidCases = []struct {
	name, path, msg string
	edit            func(map[string]any)
	raw             string // used instead of edit when set
	schemaToo       bool   // the JSON Schema can express this rule too
}{
	{name: "wrong schema", path: "$.schema", msg: "must be", schemaToo: true,
		edit: func(d map[string]any) { d["schema"] = "perfgate.results/v2" }},
	{name: "missing run", path: "$.run", msg: "required", schemaToo: true,
		edit: func(d map[string]any) { delete(d, "run") }},
	{name: "missing run id", path: "$.run.id", msg: "required", schemaToo: true,
		edit: func(d map[string]any) { delete(run(d), "id") }},
	{name: "short commit", path: "$.run.commit", msg: "SHA", schemaToo: true,
		edit: func(d map[string]any) { run(d)["commit"] = "3f1c2f7" }},
	{name: "bad repo", path: "$.run.repo", msg: "owner/name", schemaToo: true,
		edit: func(d map[string]any) { run(d)["repo"] = "kernels" }},
	{name: "bad event", path: "$.run.event", msg: "one of", schemaToo: true,
		edit: func(d map[string]any) { run(d)["event"] = "merge" }},
	{name: "bad time", path: "$.run.started_at", msg: "RFC 3339", schemaToo: true,
		edit: func(d map[string]any) { run(d)["started_at"] = "yesterday" }},
	{name: "pr zero", path: "$.run.pr", msg: "positive integer", schemaToo: true,
		edit: func(d map[string]any) { run(d)["pr"] = 0 }},
	{name: "env not strings", path: "$.run.env.sm_count", msg: "must be a string", schemaToo: true,
		edit: func(d map[string]any) { run(d)["env"].(map[string]any)["sm_count"] = 132 }},
	{name: "unknown field", path: "$.benchmarks[0].sampels", msg: "unknown field", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 0)["sampels"] = []any{1} }},
	{name: "missing better", path: "$.benchmarks[1].better", msg: "required", schemaToo: true,
		edit: func(d map[string]any) { delete(bench(d, 1), "better") }},
	{name: "unknown better", path: "$.benchmarks[0].better", msg: "one of", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 0)["better"] = "smaller" }},
	{name: "negative time sample", path: "$.benchmarks[0].samples[1]", msg: "negative time sample", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 0)["samples"] = []any{1.0, -2.0} }},
	{name: "sample not a number", path: "$.benchmarks[0].samples[0]", msg: "must be a number", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 0)["samples"] = []any{"fast"} }},
	{name: "no samples no error", path: "$.benchmarks[1].samples", msg: "error", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 1)["samples"] = []any{} }},
	{name: "metric not a number", path: "$.benchmarks[0].metrics.gbps", msg: "must be a number", schemaToo: true,
		edit: func(d map[string]any) { bench(d, 0)["metrics"] = map[string]any{"gbps": "fast"} }},
	{name: "duplicate benchmark", path: "$.benchmarks[4]", msg: "duplicate benchmark elementwise/add/fp32/n=16777216",
		edit: func(d map[string]any) { d["benchmarks"] = append(d["benchmarks"].([]any), bench(d, 0)) }},
	{name: "infinite sample", path: "$.benchmarks[0].samples[0]", msg: "not finite",
		raw: strings.Replace(mustRead("testdata/valid.json"), "51234.5", "1e999", 1)},
	{name: "syntax error", path: "line 3, column 3", msg: "invalid JSON",
		raw: "{\n  \"schema\": \"perfgate.results/v1\",\n  run: {}\n}"},
	// go test -bench output given to record/check: the message names the fix.
	{name: "another tool's output", path: "line 1", msg: "convert another tool's output with 'perfgate ingest --format FORMAT FILE'",
		raw: "goos: linux\nBenchmarkAdd-8   1000   11.5 ns/op\nPASS\n"},
}

func mustRead(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestParseRejects(t *testing.T) {
	for _, tc := range invalidCases {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.raw)
			if tc.raw == "" {
				data = mutate(t, tc.edit)
			}
			_, err := Parse("run.json", data)
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Parse error = %v, want *InputError", err)
			}
			if ie.File != "run.json" || ie.Path != tc.path || !strings.Contains(ie.Msg, tc.msg) {
				t.Errorf("got file %q path %q msg %q; want run.json, %q, containing %q", ie.File, ie.Path, ie.Msg, tc.path, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "run.json: ") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	r, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	if r.Run.PR != 123 || r.Run.Env[model.EnvGPU] != "NVIDIA H100 80GB HBM3" || len(r.Benchmarks) != 4 {
		t.Fatalf("unexpected decode: %+v", r.Run)
	}
	b := r.Benchmarks[0]
	if b.Key() != (model.Key{Suite: "elementwise", Name: "add/fp32/n=16777216"}) || b.Better != model.Lower || b.Samples[2] != 51240.25 || b.Metrics["gbps"] != 3842.1 {
		t.Errorf("benchmark 0 decoded wrong: %+v", b)
	}
	if !r.Benchmarks[3].SummaryOnly || r.Benchmarks[2].Error == "" {
		t.Errorf("summary_only/error not decoded")
	}
	// Round trip: what Encode writes, Parse accepts and decodes to the same value.
	var buf bytes.Buffer
	if err := Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	r2, err := Parse("roundtrip", buf.Bytes())
	if err != nil {
		t.Fatalf("re-parse of encoded results: %v", err)
	}
	var a, c bytes.Buffer
	Encode(&a, r)
	Encode(&c, r2)
	if a.String() != c.String() {
		t.Errorf("round trip changed the document:\n%s\nvs\n%s", a.String(), c.String())
	}
}

// schemaValidator compiles docs/results.schema.json.
func schemaValidator(t *testing.T) func(data []byte) error {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join("..", "..", "docs", "results.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return func(data []byte) error {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return err
		}
		return sch.Validate(doc)
	}
}

// TestSchemaAgrees checks docs/results.schema.json against the loader: the
// valid fixture validates, and every rejection the schema can express is a
// schema violation too.
func TestSchemaAgrees(t *testing.T) {
	validate := schemaValidator(t)
	if err := validate([]byte(mustRead("testdata/valid.json"))); err != nil {
		t.Fatalf("valid fixture fails the schema: %v", err)
	}
	for _, tc := range invalidCases {
		if !tc.schemaToo {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			if err := validate(mutate(t, tc.edit)); err == nil {
				t.Errorf("schema accepts a document the loader rejects at %s", tc.path)
			}
		})
	}
}

// TestCommittedResultsValidate: the example data and the measured runs in
// docs/results are real producer output, so the schema and the loader must
// both accept them.
func TestCommittedResultsValidate(t *testing.T) {
	validate := schemaValidator(t)
	var files []string
	for _, pattern := range []string{"examples/*.json", "examples/*/*.json", "examples/*/*/*.json", "docs/results/*.json"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(pattern)))
		files = append(files, m...)
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Schema string }
		if json.Unmarshal(data, &head) != nil || head.Schema != model.Schema {
			continue // not a results file (docs/results also holds other tools' output)
		}
		checked++
		if err := validate(data); err != nil {
			t.Errorf("%s fails the schema: %v", f, err)
		}
		if _, err := Parse(f, data); err != nil {
			t.Errorf("%s fails the loader: %v", f, err)
		}
	}
	if checked < 12 {
		t.Errorf("checked %d committed results files, want at least the demo's 12", checked)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	r, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("written file does not load: %v", err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("written file mode = %v (%v), want 0644", st.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "out.json"), r); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
