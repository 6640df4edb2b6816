package check

import (
	"fmt"

	"github.com/perfgate/perfgate/internal/memlimit"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// LoadCandidates loads the candidate files (resultsjson.LoadAll), which must be
// distinct runs of one testbed.
func LoadCandidates(files []string) ([]*model.Results, error) {
	cands, err := resultsjson.LoadAll(files)
	if err != nil {
		return nil, err
	}
	if err := resultsjson.DistinctRuns(files, cands); err != nil {
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

// InputBytes estimates the bytes of results a check holds: the candidates'
// files and the baseline runs (read from a store, in no file of known size)
// at the candidates' bytes per sample. The summaries of the history-only
// runs (model.Results.Summaries: 24 bytes a benchmark, under 3% of a run of
// 100 samples) are left out.
func InputBytes(files []string, cands, baseline []*model.Results) int64 {
	size := memlimit.FileBytes(files)
	nc, nb := samples(cands), samples(baseline)
	if nc == 0 {
		return size
	}
	return size + int64(float64(size)*float64(nb)/float64(nc))
}

// ExpectedInputBytes is InputBytes before the baseline is read: the
// candidates' files, and as much again for each of the jobs baseline jobs
// read with their samples. Where the candidates are rounds (whole runs
// each), it counts too much, which only makes the limit looser.
func ExpectedInputBytes(files []string, jobs int) int64 {
	return memlimit.FileBytes(files) * int64(1+jobs)
}

func samples(runs []*model.Results) int {
	n := 0
	for _, r := range runs {
		for i := range r.Benchmarks {
			n += len(r.Benchmarks[i].Samples)
		}
	}
	return n
}
