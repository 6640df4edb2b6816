package action

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// fakeMeasurer hands Run the runs it was given and counts the
// confirmations asked of it; a confirmation leaves the regressions
// standing (the re-run "failed").
type fakeMeasurer struct {
	m         *Measurement
	confirmed int
	baseline  *model.Baseline // what Confirm was judged against
}

func (f *fakeMeasurer) Measure(context.Context) (*Measurement, error) { return f.m, nil }

func (f *fakeMeasurer) Confirm(_ context.Context, b *model.Baseline, _ []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	f.confirmed++
	f.baseline = b
	return first, confirm.Failed(first, 3, "the GPU went away"), nil
}

// memFiles keeps the job's summary, outputs and report.
type memFiles struct {
	summary, report string
	outputs         map[string]string
}

func (f *memFiles) AddStepSummary(md string) { f.summary += md }
func (f *memFiles) WriteReport(md string) error {
	f.report = md
	return nil
}
func (f *memFiles) SetOutputs(pairs [][2]string) error {
	f.outputs = map[string]string{}
	for _, p := range pairs {
		f.outputs[p[0]] = p[1]
	}
	return nil
}

// runResults is a run of two benchmarks on testbed tb: kernels/same,
// always 100 us, and kernels/slow, 200 us times slow.
func runResults(id string, i int, ev string, pr int, slow float64) *model.Results {
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Repo: "o/r", Commit: fmt.Sprintf("%040x", i+1), Branch: "main", Event: ev, PR: pr,
		Testbed: "tb", StartedAt: time.Date(2026, 3, 1, 12, i, 0, 0, time.UTC), Env: map[string]string{model.EnvGPU: "NVIDIA H100"}}}
	if pr != 0 {
		r.Run.Branch = "feature"
	}
	for _, b := range []struct {
		name string
		base float64
	}{{"same", 100}, {"slow", 200 * slow}} {
		var s []float64
		for j := range 20 {
			s = append(s, b.base*(1+0.01*math.Sin(float64(i*20+j))))
		}
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "kernels", Name: b.name, Unit: "us", Better: model.Lower, Samples: s})
	}
	return r
}

// runFixture is Run on a pull request whose measurement regressed
// kernels/slow by 30%, against three recorded runs of main in an
// embedded store (a real one: no database mocks).
type runFixture struct {
	st       *filestore.Store
	meas     *fakeMeasurer
	cs       *syncComments
	ss       *syncStatuses
	log      *memLog
	files    *memFiles
	out, err bytes.Buffer
	opts     RunOptions
}

func newRunFixture(t *testing.T, cand *model.Results) *runFixture {
	t.Helper()
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 3 {
		if _, err := st.Record(ctx, runResults(fmt.Sprintf("main-%d", i), i, model.EventPush, 0, 1)); err != nil {
			t.Fatal(err)
		}
	}
	f := &runFixture{st: st, meas: &fakeMeasurer{m: &Measurement{Runs: []*model.Results{cand}, Names: []string{"run " + cand.Run.ID}}},
		cs: &syncComments{}, ss: &syncStatuses{}, log: &memLog{}, files: &memFiles{}}
	p := &Plan{Kind: KindCheck, Event: "pull_request", Repo: Repo{"o", "r"}, PR: 2, HeadSHA: cand.Run.Commit, Branch: "feature",
		BaselineBranch: "main", Record: true, FailOnRegression: true, RunURL: "https://github.com/o/r/actions/runs/7",
		Marker: Marker("perfgate", "perfgate")}
	f.opts = RunOptions{Plan: p, Compare: compare.DefaultOptions(), BaselineJobs: 3, Confirm: true, Comment: CommentAlways,
		Shard: Shard{Count: 1}, Version: "test", ReportPath: "/tmp/perfgate-report.md", Measurer: f.meas,
		OpenStore: func(context.Context) (Store, func() error, error) { return st, st.Close, nil },
		GitHub:    &GitHub{Comments: f.cs, Statuses: f.ss, Login: func(context.Context) (string, error) { return me, nil }},
		Log:       f.log, Files: f.files, Stdout: &f.out, Stderr: &f.err}
	return f
}

// recorded reports whether the store holds run r: recording it again is
// a duplicate.
func (f *runFixture) recorded(t *testing.T, r *model.Results) bool {
	t.Helper()
	out, err := f.st.Record(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return out == model.Duplicate
}

// TestRunPullRequest: a regression on a pull request is confirmed (the
// measurer is asked, against the history's baseline), published (report,
// outputs, comment, failing status) and only then recorded, with the
// result kept for /perfgate accept; the job fails.
func TestRunPullRequest(t *testing.T) {
	cand := runResults("pr-1", 9, model.EventPullRequest, 2, 1.3)
	f := newRunFixture(t, cand)
	out, err := Run(context.Background(), f.opts)
	if err != nil {
		t.Fatal(err)
	}
	stderr := f.err.String()
	switch {
	case !out.Failed || out.GitHubErr != nil || out.Summary.Regressions != 1 || out.Summary.Unchanged != 1:
		t.Errorf("outcome %+v, want a failing regression and an unchanged benchmark", out)
	case f.meas.confirmed != 1 || f.meas.baseline == nil || len(f.meas.baseline.Runs) != 3:
		t.Errorf("Confirm asked %d times, baseline %v; want once, against the 3 runs of main", f.meas.confirmed, f.meas.baseline)
	case !strings.Contains(f.out.String(), "confirmation (") || !strings.Contains(f.files.report, "the GPU went away"):
		t.Errorf("the confirmation is not in the log or the report:\n%s", f.out.String())
	case f.files.outputs["verdict"] != "fail" || f.files.outputs["regressions"] != "1" || f.files.outputs["run-id"] != "pr-1":
		t.Errorf("outputs %v", f.files.outputs)
	case len(f.cs.list) != 1 || !strings.Contains(f.cs.list[0].Body, "slow") || f.ss.last().State != "failure":
		t.Errorf("comments %v, status %+v; want one comment naming kernels/slow and a failing status", f.cs.list, f.ss.last())
	case !f.recorded(t, cand):
		t.Errorf("the pull request's run was not recorded; stderr:\n%s", stderr)
	case strings.Index(stderr, "comment created") > strings.Index(stderr, "run pr-1: recorded"):
		t.Errorf("recorded before the comment was posted:\n%s", stderr)
	}
	reports, err := f.st.Shards(context.Background(), ShardSet(f.opts.Plan))
	if err != nil || len(reports) != 1 {
		t.Errorf("stored results for /perfgate accept: %v, %v; want one", reports, err)
	}
}

// TestRunAccepted: a regression accepted on the pull request is not
// re-run and does not fail the job.
func TestRunAccepted(t *testing.T) {
	f := newRunFixture(t, runResults("pr-1", 9, model.EventPullRequest, 2, 1.3))
	a := model.Acceptance{Repo: "o/r", PR: 2, HeadSHA: f.opts.Plan.HeadSHA, Glob: "kernels/slow", Who: "maintainer", Reason: "known",
		At: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}
	if err := f.st.AddAcceptance(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), f.opts)
	switch {
	case err != nil:
		t.Fatal(err)
	case out.Failed || out.Summary.Accepted != 1 || out.Summary.Regressions != 0:
		t.Errorf("outcome %+v, want one accepted regression and a pass", out)
	case f.meas.confirmed != 0:
		t.Errorf("an accepted regression was re-run")
	case !strings.Contains(f.err.String(), "perfgate: 1 regression(s) accepted on #2\n"):
		t.Errorf("stderr does not count the acceptance:\n%s", f.err.String())
	case f.ss.last().State != "success":
		t.Errorf("status %+v, want success", f.ss.last())
	}
}

// TestRunPullRequestNeverBaseline: a run that claims to be a push to the
// baseline branch is judged but not recorded from a pull request, with a
// warning.
func TestRunPullRequestNeverBaseline(t *testing.T) {
	f := newRunFixture(t, runResults("sneaky", 9, model.EventPush, 0, 1))
	if _, err := Run(context.Background(), f.opts); err != nil {
		t.Fatal(err)
	}
	warned := strings.Contains(strings.Join(f.log.notes, "\n"), "run sneaky: run sneaky claims to be a push run of main outside a pull request")
	if !warned || strings.Contains(f.err.String(), "recorded run sneaky") {
		t.Errorf("warned %v (notes %q); stderr:\n%s", warned, f.log.notes, f.err.String())
	}
}

// TestRunBaselinePush: a push to the baseline branch records its runs,
// reports to the summary, and touches no GitHub API.
func TestRunBaselinePush(t *testing.T) {
	f := newRunFixture(t, runResults("main-9", 9, model.EventPush, 0, 1))
	f.opts.Plan.Kind, f.opts.Plan.Event, f.opts.Plan.Branch, f.opts.Plan.FailOnRegression = KindBaseline, "push", "main", false
	f.opts.GitHub = nil
	out, err := Run(context.Background(), f.opts)
	switch {
	case err != nil:
		t.Fatal(err)
	case out.Failed || f.meas.confirmed != 0:
		t.Errorf("outcome %+v, confirmations %d; a push neither fails nor re-runs", out, f.meas.confirmed)
	case !strings.Contains(f.err.String(), "run main-9: recorded run main-9"):
		t.Errorf("the push was not recorded:\n%s", f.err.String())
	case !strings.Contains(f.files.summary, "perfgate"):
		t.Errorf("no job summary:\n%s", f.files.summary)
	}
}
