package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// Skipping unchanged kernels (the skip-unchanged-kernels input): on a pull
// request, the builtin suites of the config do not measure the benchmarks
// whose kernels compile to the PTX hash (ptx_sha256) the baseline recorded
// for them; they are reported as skipped. A push, a dispatch and an
// interleaved A/B always measure everything: a recorded baseline must be
// complete, and an A/B has no recorded hashes to trust.

// readSkip reads skip-unchanged-kernels: true or false, default false.
func (s *Settings) readSkip(in, _ func(string) string, _ Defaults) error {
	switch v := strings.ToLower(in("skip-unchanged-kernels")); v {
	case "", "false":
		s.SkipUnchanged = false
	case "true":
		s.SkipUnchanged = true
	default:
		return inputErr("skip-unchanged-kernels", "%q is not true or false", v)
	}
	return nil
}

// Skips reports whether a run of plan skips unchanged kernels when the
// input asks for it: pull requests judged against the history only.
func (p *Plan) Skips() bool { return p.Kind == KindCheck && !p.Interleaved }

// SkipBaseline returns the baseline runs whose hashes the suites of cand
// skip against: the jobs Run judges against (q, with cfg's baseline
// settings as Run applies them; the plan chose the branch). The GPU is not
// open yet, so only the testbed label narrows the query; the PTX hash
// covers the GPU architecture (.target), so a hash from another GPU never
// matches.
func SkipBaseline(ctx context.Context, src history.BaselineSource, cand *model.Run, q check.Query, cfg *config.Config) ([]*model.Results, error) {
	s := check.ApplyConfig(check.Settings{Query: q}, cfg, map[string]bool{check.SetBranch: true}, nil)
	b, err := check.Baseline(ctx, src, []*model.Results{{Run: *cand}}, s.Query)
	if err != nil {
		return nil, fmt.Errorf("skip-unchanged-kernels: the baseline's hashes: %w", err)
	}
	return b.Runs, nil
}
