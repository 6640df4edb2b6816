package resultsjson

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestValidateAgrees: Validate reports what loading the encoded document
// reports, path and message, for every kind of problem a struct can hold.
func TestValidateAgrees(t *testing.T) {
	edits := []struct {
		name string
		edit func(r *model.Results)
	}{
		{"valid", func(r *model.Results) {}},
		{"wrong schema", func(r *model.Results) { r.Schema = "x" }},
		{"empty id", func(r *model.Results) { r.Run.ID = "" }},
		{"empty branch", func(r *model.Results) { r.Run.Branch = "" }},
		{"empty commit", func(r *model.Results) { r.Run.Commit = "" }},
		{"short commit", func(r *model.Results) { r.Run.Commit = "3f1c2f7" }},
		{"bad repo", func(r *model.Results) { r.Run.Repo = "kernels" }},
		{"empty repo", func(r *model.Results) { r.Run.Repo = "" }},
		{"bad event", func(r *model.Results) { r.Run.Event = "merge" }},
		{"negative pr", func(r *model.Results) { r.Run.PR = -3 }},
		{"empty testbed", func(r *model.Results) { r.Run.Testbed = "" }},
		{"bad better", func(r *model.Results) { r.Benchmarks[1].Better = "smaller" }},
		{"empty name", func(r *model.Results) { r.Benchmarks[0].Name = "" }},
		{"empty suite", func(r *model.Results) { r.Benchmarks[2].Suite = "" }},
		{"empty unit", func(r *model.Results) { r.Benchmarks[3].Unit = "" }},
		{"nil samples", func(r *model.Results) { r.Benchmarks[1].Samples = nil }},
		{"no samples no error", func(r *model.Results) { r.Benchmarks[1].Samples = []float64{} }},
		{"negative time sample", func(r *model.Results) { r.Benchmarks[0].Samples = []float64{1, -2.5} }},
		{"negative rate sample", func(r *model.Results) { r.Benchmarks[1].Samples = []float64{1, -2.5} }},
		{"duplicate", func(r *model.Results) { r.Benchmarks = append(r.Benchmarks, r.Benchmarks[1]) }},
		{"several problems", func(r *model.Results) {
			r.Schema, r.Run.ID, r.Run.Event = "x", "", "merge"
			r.Benchmarks[2].Unit, r.Benchmarks[2].Better, r.Benchmarks[2].Name = "", "up", ""
		}},
		{"several in one benchmark", func(r *model.Results) {
			r.Benchmarks[0].Unit, r.Benchmarks[0].Suite, r.Benchmarks[0].Samples = "", "", nil
		}},
	}
	for _, tc := range edits {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, []byte(mustRead("testdata/valid.json")))
			r.Benchmarks = slices.Clone(r.Benchmarks)
			tc.edit(r)
			data, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			_, loadErr := Parse("", data)
			gotErr := r.Validate()
			var want, got *model.InputError
			errors.As(loadErr, &want)
			errors.As(gotErr, &got)
			if (want == nil) != (got == nil) || (want != nil && (want.Path != got.Path || want.Msg != got.Msg)) {
				t.Errorf("Validate = %v; loading the encoding = %v", gotErr, loadErr)
			}
		})
	}
}

// TestValidateUnencodable: values JSON cannot hold are reported at their path.
func TestValidateUnencodable(t *testing.T) {
	for _, tc := range []struct {
		path string
		edit func(r *model.Results)
	}{
		{"$.benchmarks[0].samples[1]", func(r *model.Results) { r.Benchmarks[0].Samples = []float64{1, math.NaN()} }},
		{"$.benchmarks[0].metrics.gbps", func(r *model.Results) { r.Benchmarks[0].Metrics = map[string]float64{"gbps": math.Inf(1)} }},
		{"$.run.started_at", func(r *model.Results) { r.Run.StartedAt = r.Run.StartedAt.AddDate(9000, 0, 0) }},
	} {
		r := mustParse(t, []byte(mustRead("testdata/valid.json")))
		tc.edit(r)
		var ie *model.InputError
		if err := r.Validate(); !errors.As(err, &ie) || ie.Path != tc.path {
			t.Errorf("Validate = %v, want an InputError at %s", err, tc.path)
		}
	}
}
