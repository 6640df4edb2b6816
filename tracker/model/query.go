package model

import (
	"slices"
	"time"
)

// A BaselineQuery asks a store for the runs to judge a candidate against.
//
// The unit of "the latest K" is a job, not a run: the shards of one sharded
// CI job share run.group and each holds only its own benchmarks, so K runs
// could be K shards of the newest job and a benchmark of another shard would
// get no baseline samples. A job is a run group (JobKey: the group within
// its repository), made of those of its runs that are baseline candidates
// for Branch and comparable with Testbed, or a single run without a group.
// A job's time is its newest such shard's started_at (ties: the higher run
// ID).
type BaselineQuery struct {
	Repo    string      // only runs of this repository ("" = any)
	Branch  string      // the baseline branch, e.g. "main"
	Testbed Fingerprint // the candidate's fingerprint
	Jobs    int         // how many of the latest comparable jobs (K); see above
	// Exclude names jobs never to use nor report as passed over: the
	// candidate's own (JobKey of each candidate run). A sharded candidate's
	// sibling shards may be stored already (check --record, shards recorded
	// one by one), and no candidate is ever its own baseline.
	Exclude []JobKey
	// SampleJobs, when > 0 and Summarize is set, is how many of the newest
	// jobs come back with their samples. The runs of the older jobs (job
	// ranks as JobRanks numbers them over Baseline.Runs) come back with
	// Summaries instead of Benchmarks: each benchmark's key, unit and
	// Summarize of its samples. Only the run-to-run spread reads those
	// jobs, so a store need not hold all their samples at once. Summarize
	// must not keep the samples it is given (Summarizer.Load reuses them).
	SampleJobs int
	Summarize  func(samples []float64) RunSummary
}

// Summarizes reports whether the runs of the job ranked rank (0: the
// newest) come back summarized.
func (q *BaselineQuery) Summarizes(rank int) bool {
	return q.SampleJobs > 0 && q.Summarize != nil && rank >= q.SampleJobs
}

// JobRanks returns the job rank of each of jobs (the JobKey of runs given
// newest first): jobs numbered in order of first appearance, so rank 0 is
// the newest job.
func JobRanks(jobs []JobKey) []int {
	rank := map[JobKey]int{}
	out := make([]int, len(jobs))
	for i, k := range jobs {
		n, ok := rank[k]
		if !ok {
			n = len(rank)
			rank[k] = n
		}
		out[i] = n
	}
	return out
}

// Excludes reports whether q.Exclude names the job of r.
func (q *BaselineQuery) Excludes(r *Run) bool {
	return slices.Contains(q.Exclude, r.JobKey())
}

// ExcludeArgs splits q.Exclude for a query: the run IDs of the excluded
// jobs without a group, and the repository and name of each excluded run
// group (never nil, so a store can pass them as empty arrays).
func (q *BaselineQuery) ExcludeArgs() (runs, groupRepos, groups []string) {
	runs, groupRepos, groups = []string{}, []string{}, []string{}
	for _, k := range q.Exclude {
		if k.Group == "" {
			runs = append(runs, k.Run)
		} else {
			groupRepos, groups = append(groupRepos, k.Repo), append(groups, k.Group)
		}
	}
	return runs, groupRepos, groups
}

// A Baseline is what a store returns for a BaselineQuery: every comparable
// run of the latest K comparable jobs (all their shards), newest first by
// started_at, and the runs it passed over as not comparable, with the
// reason. Runs and Used may hold more than K runs when jobs are sharded.
//
// Incomparable is counted in runs, not jobs: it holds at most K runs, newest
// first, drawn from the baseline runs of the branch whose fingerprint is not
// comparable. When no comparable run exists, runs on any testbed count: they
// say why every verdict is incomparable. Otherwise only runs on the
// candidate's testbed label count (a driver or CUDA change on this runner;
// other runners are not news), and once K comparable jobs were found, only
// those newer than the oldest run used.
type Baseline struct {
	// Resets are the re-baseline points applied to Runs (ApplyResets).
	Resets       []Reset        `json:"resets,omitempty"`
	Runs         []*Results     `json:"-"`
	Used         []RunRef       `json:"runs"`
	Incomparable []Incomparable `json:"incomparable,omitempty"`
}

// A JobKey names the CI job a run belongs to, the unit of a baseline's and
// a prune's "latest K": the run's group within its repository, or, for a
// run without a group, the run itself.
type JobKey struct {
	Repo, Group, Run string
}

// JobKey returns the job of r.
func (r *Run) JobKey() JobKey {
	if r.Group == "" {
		return JobKey{Run: r.ID}
	}
	return JobKey{Repo: r.Repo, Group: r.Group}
}

// Incomparable is a run passed over because its testbed differs.
type Incomparable struct {
	Run    RunRef `json:"run"`
	Reason string `json:"reason"`
}

// RecordOutcome says what Record did.
type RecordOutcome int

// The outcomes of recording a run.
const (
	Recorded  RecordOutcome = iota // stored now
	Duplicate                      // the same run with the same content was already stored: nothing changed
)

// A TrendQuery selects the history of benchmarks over time.
type TrendQuery struct {
	Repo    string    // "" = any
	Suite   string    // "" = any
	Pattern string    // a glob over benchmark names, matched by MatchGlob ("" = all)
	Since   time.Time // runs started at or after this time
	Branch  string    // only baseline runs of this branch (never pull-request runs); "" = any run
	Testbed string    // the testbed label; "" = any
}

// A TrendPoint is one run's figure for one benchmark.
type TrendPoint struct {
	Run    RunRef  `json:"run"`
	Median float64 `json:"median"`
	CV     float64 `json:"cv"`
	N      int     `json:"n"`
}

// A TrendSeries is one benchmark's points in one unit, oldest first.
// Series are keyed by suite, name and unit: a benchmark whose unit changed
// between runs (ns to us, or ns/op to GB/s) is two series, since one series
// across the change would show a step that is only the unit's; no unit is
// converted. Stores return series sorted by suite, name, then unit (byte
// order); a run in which the benchmark has no samples contributes no point,
// and a series without points is left out. Better is the newest point's.
type TrendSeries struct {
	Suite  string       `json:"suite"`
	Name   string       `json:"name"`
	Unit   string       `json:"unit"`
	Better Better       `json:"better"`
	Points []TrendPoint `json:"points"`
}

// A PruneQuery says what history to delete.
type PruneQuery struct {
	OlderThan      time.Time // delete runs started before this
	BaselineBranch string    // runs of other branches go first
	KeepBaseline   int       // never delete the latest K baseline jobs (every shard: BaselineQuery) of each repo and testbed fingerprint
	DryRun         bool
}

// A PruneResult counts what a prune deleted (or would delete).
type PruneResult struct {
	Runs    int `json:"runs"`
	Samples int `json:"samples"`
	// ShardReports counts the reports of sharded jobs' shards saved before
	// PruneQuery.OlderThan (model.ShardReport), which go with the runs.
	ShardReports int `json:"shard_reports"`
}
