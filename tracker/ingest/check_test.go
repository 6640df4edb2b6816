package ingest

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		format string
		n      int
		o      Options
		want   string // "" = accepted
	}{
		{GoTest, 1, Options{Metric: "cpu-ns/op"}, ""},
		{JSONSamples, 2, Options{Unit: "ms", Better: model.Higher}, ""},
		{"", 1, Options{}, "--format: required"},
		{"junit", 1, Options{}, `--format: "junit" is not one of`},
		{GoTest, 0, Options{}, "no input files"},
		{JSONSamples, 1, Options{Better: "faster"}, `--better: must be lower or higher, got "faster"`},
		{Criterion, 1, Options{Metric: "x"}, "--metric applies to --format gotest only"},
		{GoTest, 1, Options{CriterionBaseline: "base"}, "--criterion-baseline applies to --format criterion only"},
		{GoTest, 1, Options{Unit: "ms"}, "--unit and --better apply to --format json-samples only"},
	}
	for _, tt := range tests {
		t.Run(tt.format+tt.want, func(t *testing.T) {
			err := Check(tt.format, tt.n, tt.o)
			if tt.want == "" && err != nil || tt.want != "" && (!model.IsInputError(err) || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Check = %v; want %q", err, tt.want)
			}
		})
	}
}
