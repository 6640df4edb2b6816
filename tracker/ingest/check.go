package ingest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Check checks a request to parse nfiles files in format with o: the
// options each format takes, named as perfgate ingest's flags. A bad one
// is a *model.InputError.
func Check(format string, nfiles int, o Options) error {
	msg := ""
	switch {
	case format == "":
		msg = fmt.Sprintf("%s: required, one of %s", model.Flag("format"), strings.Join(Formats, ", "))
	case !slices.Contains(Formats, format):
		msg = fmt.Sprintf("%s: %q is not one of %s", model.Flag("format"), format, strings.Join(Formats, ", "))
	case nfiles == 0:
		msg = fmt.Sprintf("no input files (usage: perfgate ingest %s %s FILE...)", model.Flag("format"), format)
	case o.Better != "" && o.Better != model.Lower && o.Better != model.Higher:
		msg = fmt.Sprintf("%s: must be lower or higher, got %q", model.Flag("better"), o.Better)
	case o.Metric != "" && format != GoTest:
		msg = fmt.Sprintf("%s applies to %s gotest only", model.Flag("metric"), model.Flag("format"))
	case o.CriterionBaseline != "" && format != Criterion:
		msg = fmt.Sprintf("%s applies to %s criterion only", model.Flag("criterion-baseline"), model.Flag("format"))
	case (o.Unit != "" || o.Better != "") && format != JSONSamples:
		msg = fmt.Sprintf("%s and %s apply to %s json-samples only (%s says its own units)", model.Flag("unit"), model.Flag("better"), model.Flag("format"), format)
	default:
		return nil
	}
	return &model.InputError{Msg: msg}
}
