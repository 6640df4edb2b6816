package runner

import (
	"fmt"

	"github.com/perfgate/perfgate/tracker/model"
)

// Skipping benchmarks whose kernels are unchanged (run
// --skip-unchanged-against FILE): the baseline's results name each
// benchmark's ptx_sha256; a benchmark whose kernels compile here to the
// same hash is not measured (kernels.SkipUnchanged) and is reported as
// skipped (compare.Skipped).

// UnchangedKernels maps each benchmark "suite/name" of the baseline runs
// to its ptx_sha256 in the newest run (by started_at) that has one.
func UnchangedKernels(runs []*model.Results) map[string]string {
	out := map[string]string{}
	newest := map[string]int{}
	for i, r := range runs {
		for _, b := range r.Benchmarks {
			h := b.Info["ptx_sha256"]
			if h == "" {
				continue
			}
			key := b.Suite + "/" + b.Name
			if j, ok := newest[key]; ok && !runs[j].Run.StartedAt.Before(r.Run.StartedAt) {
				continue
			}
			out[key], newest[key] = h, i
		}
	}
	return out
}

// loadUnchanged reads the baseline results files of --skip-unchanged-against.
func loadUnchanged(path string) (map[string]string, error) {
	runs, err := model.LoadAll([]string{path})
	if err != nil {
		return nil, fmt.Errorf("--skip-unchanged-against: %w", err)
	}
	return UnchangedKernels(runs), nil
}

// skipArgs passes --skip-unchanged-against on to the processes of rounds
// and devices.
func skipArgs(o Options) []string {
	if o.SkipUnchangedAgainst == "" {
		return nil
	}
	return []string{"--skip-unchanged-against", o.SkipUnchangedAgainst}
}
