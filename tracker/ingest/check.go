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
		msg = "--format: required, one of " + strings.Join(Formats, ", ")
	case !slices.Contains(Formats, format):
		msg = fmt.Sprintf("--format: %q is not one of %s", format, strings.Join(Formats, ", "))
	case nfiles == 0:
		msg = fmt.Sprintf("no input files (usage: perfgate ingest --format %s FILE...)", format)
	case o.Better != "" && o.Better != model.Lower && o.Better != model.Higher:
		msg = fmt.Sprintf("--better: must be lower or higher, got %q", o.Better)
	case o.Metric != "" && format != GoTest:
		msg = "--metric applies to --format gotest only"
	case o.CriterionBaseline != "" && format != Criterion:
		msg = "--criterion-baseline applies to --format criterion only"
	case (o.Unit != "" || o.Better != "") && format != JSONSamples:
		msg = fmt.Sprintf("--unit and --better apply to --format json-samples only (%s says its own units)", format)
	default:
		return nil
	}
	return &model.InputError{Msg: msg}
}
