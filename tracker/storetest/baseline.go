package storetest

import (
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

var baselineTests = []contractTest{
	{"EmptyHistory", testBaselineEmpty},
	{"LatestKNewestFirst", testBaselineLatestK},
	{"KLargerThanHistory", testBaselineKLarger},
	{"OnlyBaselineRunsOfTheBranch", testBaselineBranchOnly},
	{"RepoFilter", testBaselineRepo},
	{"Exclude", testBaselineExclude},
	{"IncomparablePassedOver", testBaselineIncomparable},
	{"NothingComparable", testBaselineNothingComparable},
	{"IncomparableCappedAtK", testBaselineIncomparableCap},
	{"ComparableDespiteMinorDifferences", testBaselineComparable},
	{"FailedRunsNeverBaseline", testBaselineSkipsFailed},
	{"ShardedJobsWholeGroups", testBaselineShardedJobs},
	{"GroupedAndUngrouped", testBaselineGroupedAndUngrouped},
	{"SummarizedHistory", testBaselineSummarized},
}

// testBaselineSkipsFailed: a newer main run whose every benchmark failed is
// stored but passed over; one with some failures still counts.
func testBaselineSkipsFailed(t *testing.T, s history.Store) {
	failed := model.Benchmark{Suite: "elementwise", Name: "add/fp32/n=16777216", Unit: "ns", Better: model.Lower,
		Error: "CUDA_ERROR_LAUNCH_FAILED"}
	partial := withBenchmarks(failed, bench("memory", "copy/n=268435456", 2000, 2010, 1990))
	record(t, s, mkRun("r0", 0), mkRun("r1", 1), mkRun("r2-partial", 2, partial),
		mkRun("r3-failed", 3, withBenchmarks(failed)))
	b := baseline(t, s, mainQuery(2))
	assertIDs(t, "used", usedIDs(t, b), "r2-partial", "r1")
	assertIDs(t, "incomparable", incomparableIDs(t, b))
}

// assertIDs fails unless got equals want (both in order).
func assertIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func testBaselineEmpty(t *testing.T, s history.Store) {
	b := baseline(t, s, mainQuery(3))
	assertIDs(t, "used", usedIDs(t, b))
	assertIDs(t, "incomparable", incomparableIDs(t, b))
}

func testBaselineLatestK(t *testing.T, s history.Store) {
	// Recorded out of order: selection is by started_at, not insertion.
	for _, h := range []int{2, 0, 4, 1, 3} {
		record(t, s, mkRun(runID(h), h))
	}
	b := baseline(t, s, mainQuery(3))
	assertIDs(t, "used", usedIDs(t, b), "r4", "r3", "r2")
	assertIDs(t, "incomparable", incomparableIDs(t, b))
	for i, r := range b.Runs {
		assertSameResults(t, r, mkRun(r.Run.ID, 4-i))
	}
}

func runID(h int) string { return "r" + string(rune('0'+h)) }

func testBaselineKLarger(t *testing.T, s history.Store) {
	record(t, s, mkRun("r0", 0), mkRun("r1", 1))
	assertIDs(t, "used", usedIDs(t, baseline(t, s, mainQuery(10))), "r1", "r0")
}

func testBaselineBranchOnly(t *testing.T, s history.Store) {
	record(t, s,
		mkRun("push-0", 0),
		mkRun("dispatch-2", 2, func(r *model.Results) { r.Run.Event = model.EventWorkflowDispatch }),
		mkRun("schedule-3", 3, func(r *model.Results) { r.Run.Event = model.EventSchedule }),
		// Newer runs that must never serve as baseline for main:
		mkRun("pr-on-main", 5, pullRequest(12)),                           // a fork's PR from its main
		mkRun("pr-event-no-number", 6, pullRequest(0)),                    // pull_request event, number unknown
		mkRun("push-with-pr", 7, func(r *model.Results) { r.Run.PR = 9 }), // tagged with a PR
		mkRun("feature-push", 8, onBranch("feature/fast-gelu")),
		mkRun("feature-pr", 9, onBranch("feature/fast-gelu"), pullRequest(13)),
	)
	b := baseline(t, s, mainQuery(10))
	assertIDs(t, "used", usedIDs(t, b), "schedule-3", "dispatch-2", "push-0")
	assertIDs(t, "incomparable", incomparableIDs(t, b))

	q := mainQuery(10)
	q.Branch = "feature/fast-gelu"
	assertIDs(t, "used for feature branch", usedIDs(t, baseline(t, s, q)), "feature-push")
}

func testBaselineRepo(t *testing.T, s history.Store) {
	record(t, s, mkRun("mine", 0), mkRun("theirs-1", 1, inRepo("other/fork")), mkRun("theirs-2", 2, inRepo("other/fork")))
	assertIDs(t, "used", usedIDs(t, baseline(t, s, mainQuery(5))), "mine")
	q := mainQuery(5)
	q.Repo = ""
	assertIDs(t, "used with any repo", usedIDs(t, baseline(t, s, q)), "theirs-2", "theirs-1", "mine")
}

func testBaselineExclude(t *testing.T, s history.Store) {
	record(t, s, mkRun("r0", 0), mkRun("r1", 1), mkRun("candidate", 2))
	q := mainQuery(2)
	q.Exclude = []model.JobKey{{Run: "candidate"}}
	assertIDs(t, "used", usedIDs(t, baseline(t, s, q)), "r1", "r0")
}

// incomparableVariants are runs that must not be compared with the default
// testbed, each for one reason.
var incomparableVariants = []struct {
	name string
	opt  opt
}{
	{"other testbed label", onTestbed("gpu-a100-2")},
	{"other GPU", withEnv(model.EnvGPU, "NVIDIA H200")},
	{"other driver major", withEnv(model.EnvDriver, "570.172.08")},
	{"other CUDA", withEnv(model.EnvCUDA, "12.8")},
}

func testBaselineIncomparable(t *testing.T, s history.Store) {
	// Two comparable runs, then two newer runs after the runner changed.
	// Runs on the same testbed label that were passed over are reported
	// (the report says why fewer or older runs were used); runs on other
	// testbed labels are not, since other runners are not news.
	record(t, s, mkRun("ok-2", 2), mkRun("ok-4", 4),
		mkRun("upgraded-7", 7, withEnv(model.EnvDriver, "590.10.02")),
		mkRun("other-runner-8", 8, onTestbed("gpu-a100-2")))
	b := baseline(t, s, mainQuery(2))
	assertIDs(t, "used", usedIDs(t, b), "ok-4", "ok-2")
	assertIDs(t, "incomparable", incomparableIDs(t, b), "upgraded-7")

	// Same-label runs older than the oldest run used are not "passed over"
	// once K runs were found…
	record(t, s, mkRun("ok-5", 5), mkRun("old-driver-1", 1, withEnv(model.EnvDriver, "570.172.08")))
	b = baseline(t, s, mainQuery(2))
	assertIDs(t, "used", usedIDs(t, b), "ok-5", "ok-4")
	assertIDs(t, "incomparable", incomparableIDs(t, b), "upgraded-7")

	// …but they are when fewer than K comparable runs exist.
	b = baseline(t, s, mainQuery(5))
	assertIDs(t, "used", usedIDs(t, b), "ok-5", "ok-4", "ok-2")
	assertIDs(t, "incomparable", incomparableIDs(t, b), "upgraded-7", "old-driver-1")
}

func testBaselineNothingComparable(t *testing.T, s history.Store) {
	for i, v := range incomparableVariants {
		t.Run(v.name, func(t *testing.T) {
			id := "x-" + v.name
			record(t, s, mkRun(id, i, v.opt))
			// With nothing comparable stored, every run is passed over with
			// a reason, whatever its label: the report must say why.
			b := baseline(t, s, mainQuery(10))
			assertIDs(t, "used", usedIDs(t, b))
			got := incomparableIDs(t, b)
			if !slices.Contains(got, id) {
				t.Errorf("incomparable = %v, want it to include %s", got, id)
			}
		})
	}
	b := baseline(t, s, mainQuery(10))
	assertIDs(t, "used", usedIDs(t, b))
	if len(b.Incomparable) != len(incomparableVariants) {
		t.Errorf("incomparable has %d runs, want %d", len(b.Incomparable), len(incomparableVariants))
	}
	for i := 1; i < len(b.Incomparable); i++ {
		if b.Incomparable[i].Run.StartedAt.After(b.Incomparable[i-1].Run.StartedAt) {
			t.Errorf("incomparable not newest first: %v", incomparableIDs(t, b))
		}
	}
}

func testBaselineIncomparableCap(t *testing.T, s history.Store) {
	for h := range 5 {
		record(t, s, mkRun(runID(h), h, withEnv(model.EnvGPU, "NVIDIA A100-SXM4-80GB")))
	}
	b := baseline(t, s, mainQuery(3))
	assertIDs(t, "used", usedIDs(t, b))
	assertIDs(t, "incomparable", incomparableIDs(t, b), "r4", "r3", "r2")
}

func testBaselineComparable(t *testing.T, s history.Store) {
	record(t, s,
		mkRun("same", 0),
		mkRun("driver-minor", 1, withEnv(model.EnvDriver, "580.65.06")),
		mkRun("nvrtc-differs", 2, withEnv(model.EnvNVRTC, "12.9")),
		mkRun("clock-differs", 3, withEnv("sm_clock_mhz", "1755")),
		mkRun("no-env", 4, noEnv()),
	)
	b := baseline(t, s, mainQuery(5))
	assertIDs(t, "used", usedIDs(t, b), "no-env", "clock-differs", "nvrtc-differs", "driver-minor", "same")
	assertIDs(t, "incomparable", incomparableIDs(t, b))
}
