package runner

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
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

// loadUnchanged reads the baseline results files of --skip-unchanged-against
// (comma-separated).
func loadUnchanged(paths string) (map[string]string, error) {
	var files []string
	for _, p := range strings.Split(paths, ",") {
		if p = strings.TrimSpace(p); p != "" {
			files = append(files, p)
		}
	}
	runs, err := resultsjson.LoadAll(files)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", model.Flag("skip-unchanged-against"), err)
	}
	return UnchangedKernels(runs), nil
}

// renameSuite returns the hashes of unchanged recorded under the config
// suite name (a builtin suite's benchmarks are recorded under it) keyed
// by the built-in suite's, as the kernels name them.
func renameSuite(unchanged map[string]string, name, builtin string) map[string]string {
	out := map[string]string{}
	for k, h := range unchanged {
		if rest, ok := strings.CutPrefix(k, name+"/"); ok {
			out[builtin+"/"+rest] = h
		}
	}
	return out
}
