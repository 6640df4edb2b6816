package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// WriteSkipBaseline writes the baseline runs of skip-unchanged-kernels, one
// results file each, to a new folder under tempRoot ("": the system's), and
// returns them, comma-separated, for ConfigOptions.SkipUnchangedAgainst (""
// when no benchmark of runs has a PTX hash: everything is measured), with
// a function that removes the folder (also when err is not nil). It logs
// to log how many hashes there are and which suites of cfg that only
// selects are measured in full: kernel and command suites never skip.
func WriteSkipBaseline(tempRoot string, runs []*model.Results, cfg *config.Config, only *regexp.Regexp, log io.Writer) (against string, cleanup func(), err error) {
	cleanup = func() {}
	dir, err := os.MkdirTemp(tempRoot, "perfgate-skip-")
	if err != nil {
		return "", cleanup, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	var paths []string
	for i, r := range runs {
		p := filepath.Join(dir, strconv.Itoa(i)+".json")
		if err := resultsjson.WriteFile(p, r); err != nil {
			return "", cleanup, err
		}
		paths = append(paths, p)
	}
	hashes := len(UnchangedKernels(runs))
	fmt.Fprintf(log, "perfgate: skip-unchanged-kernels: %d benchmarks of %d baseline runs have a PTX hash; builtin suites skip those whose kernels compile to the same hash\n",
		hashes, len(runs))
	if hashes > 0 {
		against = strings.Join(paths, ",")
	}
	if measured := measuredInFull(cfg, only); len(measured) > 0 {
		fmt.Fprintf(log, "perfgate: skip-unchanged-kernels: suites %s are measured in full (only builtin suites skip unchanged kernels)\n",
			strings.Join(measured, ", "))
	}
	return against, cleanup, nil
}

// measuredInFull names the suites of cfg that only selects (nil: all) and
// that are not builtin: they are measured whatever the baseline's hashes.
func measuredInFull(cfg *config.Config, only *regexp.Regexp) []string {
	var out []string
	for _, s := range cfg.Suites {
		if s.Builtin == nil && (only == nil || only.MatchString(s.Name)) {
			out = append(out, s.Name)
		}
	}
	return out
}
