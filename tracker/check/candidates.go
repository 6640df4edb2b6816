package check

import (
	"fmt"

	"github.com/perfgate/perfgate/tracker/model"
)

// LoadCandidates loads the candidate files (model.LoadAll), which must be
// distinct runs of one testbed.
func LoadCandidates(files []string) ([]*model.Results, error) {
	cands, err := model.LoadAll(files)
	if err != nil {
		return nil, err
	}
	if err := model.DistinctRuns(files, cands); err != nil {
		return nil, err
	}
	fp := model.FingerprintOf(&cands[0].Run)
	for i, r := range cands[1:] {
		if ok, why := model.Comparable(fp, model.FingerprintOf(&r.Run)); !ok {
			return nil, &model.InputError{File: files[i+1], Path: "$.run",
				Msg: fmt.Sprintf("ran on another testbed than %s (%s): candidates must come from one testbed", files[0], why)}
		}
	}
	return cands, nil
}

// RunNames names runs for messages: "run ID".
func RunNames(runs []*model.Results) []string {
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = "run " + r.Run.ID
	}
	return names
}
