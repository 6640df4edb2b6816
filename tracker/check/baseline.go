package check

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Query says which stored runs the candidates are judged against.
type Query struct {
	Branch  string // the baseline branch
	Testbed string // the testbed label baseline runs come from ("" = the first candidate's)
	Jobs    int    // the newest Jobs comparable jobs are the baseline
	History int    // how many jobs to read for the run-to-run spread (at least Jobs are read)
}

// Baseline reads the baseline of the candidates: every shard of the
// latest max(Jobs, History) comparable jobs of q.Branch, never the
// candidates' own jobs (the store excludes them, model.BaselineQuery), and
// at most Jobs runs passed over as incomparable. Judge tests against the
// newest Jobs; the older ones inform the spread.
//
// Only the testbed label may change (q.Testbed): the GPU model, driver
// major and CUDA version must still match the candidate's, so a baseline
// from another runner of the same kind is used and one from other
// hardware is still incomparable.
func Baseline(ctx context.Context, src history.BaselineSource, cands []*model.Results, q Query) (*model.Baseline, error) {
	return baseline(ctx, src, cands, q, model.BaselineQuery{})
}

// JudgeBaseline is Baseline for Judge: the runs of the jobs beyond the
// newest q.Jobs come with each benchmark's samples replaced by their
// summary (compare.SummarizeRun, model.BaselineQuery.SampleJobs), which is
// all Judge reads of them. So the memory of a check grows with q.Jobs,
// not q.History, and its verdicts are those it would give on the samples.
func JudgeBaseline(ctx context.Context, src history.BaselineSource, cands []*model.Results, q Query) (*model.Baseline, error) {
	return baseline(ctx, src, cands, q, model.BaselineQuery{SampleJobs: q.Jobs, Summarize: compare.SummarizeRun})
}

func baseline(ctx context.Context, src history.BaselineSource, cands []*model.Results, q Query, bq model.BaselineQuery) (*model.Baseline, error) {
	first := &cands[0].Run
	bq.Repo, bq.Branch, bq.Testbed = first.Repo, q.Branch, model.FingerprintOf(first)
	bq.Jobs, bq.Exclude = max(q.Jobs, q.History), CandidateJobs(cands)
	if q.Testbed != "" {
		bq.Testbed.Testbed = q.Testbed
	}
	b, err := src.Baseline(ctx, bq)
	if err != nil {
		return nil, err
	}
	if rs, ok := src.(history.ResetSource); ok {
		resets, err := rs.Resets(ctx)
		if err != nil {
			return nil, err
		}
		model.ApplyResets(b, resets)
	}
	if len(b.Incomparable) > q.Jobs {
		b.Incomparable = b.Incomparable[:q.Jobs]
	}
	return b, nil
}

// CandidateJobs returns the jobs (model.JobKey) the candidate runs belong
// to, in order, each once.
func CandidateJobs(cands []*model.Results) []model.JobKey {
	var jobs []model.JobKey
	for _, c := range cands {
		if k := c.Run.JobKey(); !slices.Contains(jobs, k) {
			jobs = append(jobs, k)
		}
	}
	return jobs
}

// Judge compares the candidates with baseline b, testing against its
// newest jobs jobs (compare.Options.BaselineJobs).
//
// A benchmark left without baseline samples by a reset (model.Reset) is
// insufficient, and its reason says who reset it, when and why.
func Judge(b *model.Baseline, cands []*model.Results, jobs int, opt compare.Options) (*compare.Comparison, error) {
	opt.BaselineJobs = jobs
	c, err := compare.CompareBaseline(b, cands, opt)
	if err != nil || len(b.Resets) == 0 {
		return c, err
	}
	for i := range c.Results {
		r := &c.Results[i]
		if r.Verdict != compare.Insufficient || r.NBaseline > 0 {
			continue
		}
		for j := len(b.Resets) - 1; j >= 0; j-- { // the newest reset that covers it
			rs := b.Resets[j]
			if (rs.Repo == "" || len(cands) > 0 && rs.Repo == cands[0].Run.Repo) && model.MatchGlob(rs.Glob, r.Key().String()) {
				r.Reason = resetReason(rs)
				break
			}
		}
	}
	return c, nil
}

// resetReason says why a reset benchmark has no baseline yet.
func resetReason(rs model.Reset) string {
	why := fmt.Sprintf("baseline reset %s by %s: no baseline run since", rs.At.UTC().Format(time.DateOnly), cmp.Or(rs.Who, "someone"))
	if rs.Reason != "" {
		why += " (" + rs.Reason + ")"
	}
	return why
}
