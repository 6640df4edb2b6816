package action

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// Re-baseline on merge. When a push to the baseline branch records the
// commit that merged a pull request with acceptances, each acceptance
// becomes a baseline reset at this push's runs: the history before them
// stops feeding the baseline and the spread of the accepted benchmarks,
// so the next pull request is judged against the accepted level alone.
//
// Which pull request a commit merged is GitHub's answer to "the pull
// requests associated with this commit", which holds for merge, squash
// and rebase merges alike (a squash commit shares no commit with the
// pull request's head, so the acceptance's head cannot find it). The API
// is asked only when the repository has acceptances not yet turned into
// resets, so a team that never accepts makes no request on a push.

// A ResetStore keeps re-baseline points; both history stores implement it.
type ResetStore interface {
	history.ResetSource
	history.ResetStore
}

// resetReason ties a reset to the acceptance it comes from: the prefix
// finds it again, so that a re-run of the push adds no second reset.
func resetReason(a model.Acceptance, sha string) string {
	s := fmt.Sprintf("accepted on #%d by %s, merged in %s", a.PR, a.Who, model.ShortSHA(sha))
	if r := strings.TrimSpace(a.Reason); r != "" {
		s += ": " + r
	}
	return s
}

// rebaseline adds the resets of the acceptances of the pull requests the
// recorded commit merged, at the earliest start of this job's runs. Its
// failures are warnings: the runs are recorded by then, and a maintainer
// can reset by hand (perfgate baseline reset).
func (r *run) rebaseline(ctx context.Context, st Store, runs []*model.Results) {
	msgs, err := r.rebaselineErr(ctx, st, runs)
	for _, m := range msgs {
		fmt.Fprintf(r.o.Stderr, "perfgate: %s\n", m)
	}
	if err != nil {
		r.o.Log.Annotate("warning", "perfgate could not re-baseline accepted changes",
			fmt.Sprintf("%v; a maintainer can do it by hand: perfgate baseline reset GLOB %s ...", err, model.Flag("reason")))
	}
}

func (r *run) rebaselineErr(ctx context.Context, st Store, runs []*model.Results) ([]string, error) {
	as, ok1 := st.(history.AcceptanceStore)
	rs, ok2 := st.(ResetStore)
	if !ok1 || !ok2 || len(runs) == 0 {
		return nil, nil
	}
	repo := r.plan.Repo.String()
	accs, err := as.Acceptances(ctx, repo, 0)
	if err != nil || len(accs) == 0 {
		return nil, err
	}
	resets, err := rs.Resets(ctx)
	if err != nil {
		return nil, err
	}
	pending := map[int][]model.Acceptance{}
	for _, a := range accs {
		if !hasReset(resets, a) {
			pending[a.PR] = append(pending[a.PR], a)
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	if r.o.GitHub == nil || r.o.GitHub.Pulls == nil {
		return nil, fmt.Errorf("%d pull request(s) have accepted regressions, but without a github-token the push cannot ask which pull request it merged", len(pending))
	}
	prs, err := r.o.GitHub.Pulls.ForCommit(ctx, r.plan.Repo, r.plan.HeadSHA)
	if err != nil {
		return nil, err
	}
	at := runs[0].Run.StartedAt
	for _, x := range runs[1:] {
		if x.Run.StartedAt.Before(at) {
			at = x.Run.StartedAt
		}
	}
	var msgs []string
	for _, pr := range prs {
		if pr.MergedAt.IsZero() || pr.BaseRef != r.plan.BaselineBranch {
			continue
		}
		for _, a := range pending[pr.Number] {
			reset := model.Reset{Repo: repo, Glob: a.Glob, At: at.UTC(), Who: a.Who, Reason: resetReason(a, r.plan.HeadSHA)}
			if err := rs.AddReset(ctx, reset); err != nil {
				return msgs, err
			}
			msgs = append(msgs, fmt.Sprintf("baseline reset %q at %s: accepted on #%d by %s, merged here; earlier runs feed no baseline",
				a.Glob, at.UTC().Format(time.RFC3339), a.PR, a.Who))
		}
	}
	return msgs, nil
}

// hasReset reports whether the acceptance a was turned into a reset.
func hasReset(resets []model.Reset, a model.Acceptance) bool {
	prefix := fmt.Sprintf("accepted on #%d by %s, merged in ", a.PR, a.Who)
	for _, x := range resets {
		if x.Repo == a.Repo && x.Glob == a.Glob && strings.HasPrefix(x.Reason, prefix) {
			return true
		}
	}
	return false
}
