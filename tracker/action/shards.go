package action

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// Sharded jobs. The jobs of a matrix (say one per GPU model, or one per
// subset of the suites) share the workflow's job id and so the sticky
// comment's marker. With the shards and shard inputs, each shard saves
// its comparison to the history store under the key of the set (the pull
// request's head commit and the marker), then rebuilds the comment and
// the status from every report of the set found there. The last shard to
// finish therefore posts the whole verdict, and earlier ones post what
// was in so far, saying which shards are missing.
//
// Two shards finishing at once: each saves before it reads, so at least
// one of them reads both reports; and each reads the store again after
// posting and posts again when it finds reports it did not post. The
// last post to land is followed by a read that finds nothing new, so the
// comment and the status end up with every report. Duplicate comments
// from simultaneous creates are merged by Sticky.Post.

// A Shard says which shard of a sharded job this run is: Index 0 …
// Count-1 (the matrix's strategy.job-index and strategy.job-total).
// Count ≤ 1: the job is not sharded.
type Shard struct{ Index, Count int }

// maxShardPasses bounds the read-post-read rounds of one shard.
const maxShardPasses = 5

// ShardSet is the key of the shard set a pull-request run belongs to.
func ShardSet(p *Plan) string {
	return fmt.Sprintf("%s#%d@%s %s", p.Repo, p.PR, p.HeadSHA, p.Marker)
}

// A shardData is what a shard leaves for the others: its final comparison
// and what the comment shows besides it. It is encoded with gob, which
// keeps NaN figures and tolerates fields added or removed between
// versions.
type shardData struct {
	Label      string // the shard's testbed, for the comment
	Comparison *compare.Comparison
	Notes      []string // pre-run check warnings
	// History and Confirmation are a job's own (not sharded) report's, so
	// that /perfgate accept renders the whole comment again (steer.go).
	History      report.Histories
	Confirmation *confirm.Confirmation
}

func encodeShard(d shardData) ([]byte, error) {
	// A result's Warnings are errors of types gob does not know: they are
	// left out (the report file and the job summary keep them).
	c := *d.Comparison
	c.Results = slices.Clone(c.Results)
	for i := range c.Results {
		c.Results[i].Warnings = nil
	}
	d.Comparison = &c
	if d.Confirmation != nil {
		conf := *d.Confirmation
		conf.Outcomes = slices.Clone(conf.Outcomes)
		for i := range conf.Outcomes {
			conf.Outcomes[i].First.Warnings = nil
		}
		d.Confirmation = &conf
	}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(d)
	return b.Bytes(), err
}

func decodeShard(b []byte) (shardData, error) {
	var d shardData
	err := gob.NewDecoder(bytes.NewReader(b)).Decode(&d)
	if err == nil && d.Comparison == nil {
		err = errors.New("no comparison")
	}
	return d, err
}

// A ShardMerge is the merged verdict of the shards reported so far.
type ShardMerge struct {
	Comparison *compare.Comparison
	Progress   report.ShardProgress
	Notes      []string
}

// MergeShards merges the reports of a set of count shards.
//
// A report of another shard count is an earlier attempt at the same
// commit, sharded differently (a matrix changed between re-runs): its
// results are measurements of this commit all the same, so those of
// benchmarks no current shard measured are kept, with a note, and a
// regression among them still fails the set; a benchmark a current shard
// measured takes that shard's result. A report that cannot be decoded
// (damaged in the store) is left out with a note: its shard counts as not
// reported. A benchmark that more than one shard measured (shards per GPU
// model) is named with the shard's label.
func MergeShards(reports []model.ShardReport, count int) (*ShardMerge, error) {
	m := &ShardMerge{Progress: report.ShardProgress{Count: count, Labels: make([]string, count)}}
	var parts, stale []shardData
	var idx, staleCounts []int
	reports = slices.Clone(reports) // newest first, so that an earlier attempt's newest result counts
	slices.SortStableFunc(reports, func(a, b model.ShardReport) int { return b.RecordedAt.Compare(a.RecordedAt) })
	for _, rep := range reports {
		if rep.Shard < 0 || rep.Shard >= rep.Shards {
			continue
		}
		d, err := decodeShard(rep.Data)
		if err != nil {
			m.Progress.Notes = append(m.Progress.Notes, fmt.Sprintf("the stored report of shard %d could not be read (%v): it counts as not reported; re-run that shard's job", rep.Shard, err))
			continue
		}
		if rep.Shards != count {
			stale, staleCounts = append(stale, d), append(staleCounts, rep.Shards)
			continue
		}
		parts, idx = append(parts, d), append(idx, rep.Shard)
	}
	if len(parts) == 0 {
		return nil, errors.New("no readable report of this shard set in the store")
	}
	// A shard is named by its testbed, unless shards share one (shards of
	// the suites on one kind of runner): then by its index.
	testbeds := map[string]int{}
	for _, d := range parts {
		testbeds[d.Label]++
	}
	for i, d := range parts {
		m.Progress.Labels[idx[i]] = d.Label
		if d.Label == "" || testbeds[d.Label] > 1 {
			m.Progress.Labels[idx[i]] = fmt.Sprintf("shard %d", idx[i])
		}
	}
	m.Comparison = mergeComparisons(parts, m.Progress.Labels, idx)
	if n := addStale(m.Comparison, parts, stale); n > 0 {
		m.Progress.Notes = append(m.Progress.Notes, fmt.Sprintf("%d result(s) come from an earlier attempt at this commit sharded %v ways, "+
			"for benchmarks no shard of this attempt has measured yet", n, slices.Compact(slices.Sorted(slices.Values(staleCounts)))))
	}
	for i, d := range parts {
		for _, n := range d.Notes {
			m.Notes = append(m.Notes, fmt.Sprintf("shard %d (%s): %s", idx[i], m.Progress.Labels[idx[i]], n))
		}
	}
	return m, nil
}

// addStale adds to out the results of the earlier attempts' reports
// (stale) whose benchmarks no current report (parts) measured, each
// benchmark once, and returns how many it added.
func addStale(out *compare.Comparison, parts, stale []shardData) int {
	measured := map[model.Key]bool{}
	for _, d := range parts {
		for _, r := range d.Comparison.Results {
			measured[r.Key()] = true
		}
	}
	n := 0
	for _, d := range stale {
		for _, r := range d.Comparison.Results {
			if !measured[r.Key()] {
				measured[r.Key()] = true
				out.Results = append(out.Results, r)
				n++
			}
		}
	}
	if n > 0 {
		sortResults(out.Results)
		out.Summary = compare.Summarize(out.Results)
	}
	return n
}

func mergeComparisons(parts []shardData, labels []string, idx []int) *compare.Comparison {
	seen := map[model.Key]int{}
	for _, d := range parts {
		for _, r := range d.Comparison.Results {
			seen[r.Key()]++
		}
	}
	c0 := parts[0].Comparison
	out := &compare.Comparison{Options: c0.Options, Candidate: c0.Candidate}
	var envs [2][]map[string]string
	for i, d := range parts {
		c := d.Comparison
		for _, r := range c.Results {
			if seen[r.Key()] > 1 {
				r.Name += " @" + labels[idx[i]]
			}
			out.Results = append(out.Results, r)
		}
		out.CandidateRuns = append(out.CandidateRuns, c.CandidateRuns...)
		out.Baseline = append(out.Baseline, c.Baseline...)
		out.History = append(out.History, c.History...)
		out.Incomparable = append(out.Incomparable, c.Incomparable...)
		out.References = append(out.References, c.References...)
		envs[0], envs[1] = append(envs[0], c.BaselineEnv), append(envs[1], c.CandidateEnv)
	}
	sortResults(out.Results)
	out.Summary = compare.Summarize(out.Results)
	out.BaselineEnv, out.CandidateEnv = joinEnvs(envs[0]), joinEnvs(envs[1])
	return out
}

// sortResults orders results by suite, then name.
func sortResults(rs []compare.Result) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		return a.Suite < b.Suite || a.Suite == b.Suite && a.Name < b.Name
	})
}

// joinEnvs merges environments: a key's distinct values joined by " / ",
// as compare does for the runs of one side.
func joinEnvs(es []map[string]string) map[string]string {
	vals := map[string][]string{}
	for _, e := range es {
		for k, v := range e {
			if !slices.Contains(vals[k], v) {
				vals[k] = append(vals[k], v)
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	out := make(map[string]string, len(vals))
	for k, v := range vals {
		out[k] = strings.Join(v, " / ")
	}
	return out
}

// ShardStatus is the commit status of a merged verdict: while shards are
// missing it is pending, unless a regression already fails it.
func ShardStatus(m *ShardMerge, failOnRegression bool, targetURL string) Status {
	st := StatusFor(m.Comparison, failOnRegression, targetURL)
	if m.Progress.Complete() || st.State == StateFailure {
		st.Description = Clip(m.Progress.ShardLine()+"; "+st.Description, MaxStatusDescription)
		return st
	}
	st.State = StatePending
	st.Description = Clip(m.Progress.ShardLine()+"; so far "+st.Description, MaxStatusDescription)
	return st
}

// fingerprint names the reports of a read, to tell whether a later read
// found more.
func fingerprint(reports []model.ShardReport) string {
	h := sha256.New()
	for _, r := range reports {
		fmt.Fprintf(h, "%d/%d:%d:", r.Shard, r.Shards, len(r.Data))
		h.Write(r.Data)
	}
	return string(h.Sum(nil))
}

// updateGitHubShards saves this shard's comparison to the store, then
// posts the comment and the status of every shard reported, until a read
// after posting finds nothing new.
func (r *run) updateGitHubShards(ctx context.Context, st Store, c *compare.Comparison) error {
	ss, ok := st.(history.ShardStore)
	if !ok {
		return errors.New("the history store keeps no shard reports")
	}
	data, err := encodeShard(shardData{Label: c.Candidate.Testbed, Comparison: c, Notes: r.notes})
	if err != nil {
		return fmt.Errorf("encode the shard report: %w", err)
	}
	set, sh := ShardSet(r.plan), r.o.Shard
	if err := ss.SaveShard(ctx, model.ShardReport{Set: set, Shard: sh.Index, Shards: sh.Count, Data: data}); err != nil {
		return fmt.Errorf("save the shard report: %w", err)
	}
	posted := ""
	for range maxShardPasses {
		reports, err := ss.Shards(ctx, set)
		if err != nil {
			return fmt.Errorf("read the shard reports: %w", err)
		}
		fp := fingerprint(reports)
		if fp == posted {
			return nil
		}
		m, err := MergeShards(reports, sh.Count)
		if err != nil {
			return err
		}
		if err := r.postMerged(ctx, m); err != nil {
			return err
		}
		posted = fp
	}
	return nil
}

// postMerged posts the comment and the status of a merged verdict.
func (r *run) postMerged(ctx context.Context, m *ShardMerge) error {
	pointer := "The full report of each shard is in its job's summary: " + r.plan.RunURL
	var notes []string
	notes = append(notes, m.Notes...)
	extra := len(report.WithPreRunNotes("", notes)) + len(report.WithShards("### \n", m.Progress))
	compare.Accept(m.Comparison, r.accs)
	body := report.Markdown(m.Comparison, report.Options{Title: "perfgate", Footer: r.footer(), Overflow: pointer, Acceptances: r.accs,
		MaxBytes: MaxCommentChars - len(r.plan.Marker) - 1 - extra})
	body = r.redact(report.WithShards(report.WithPreRunNotes(body, notes), m.Progress))
	body = FitComment(r.plan.Marker, body, pointer)
	var errs []error
	act, made, err := r.postComment(ctx, body, m.Comparison.Summary.Changed())
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("the pull-request comment: %w", err))
	case act != CommentSkip:
		fmt.Fprintf(r.o.Stderr, "perfgate: comment %sd (%s): %s\n", act, m.Progress.ShardLine(), made.URL)
	}
	st := ShardStatus(m, r.plan.FailOnRegression, r.plan.RunURL)
	if err := r.o.GitHub.Statuses.Create(ctx, r.plan.Repo, r.plan.HeadSHA, st); err != nil {
		errs = append(errs, fmt.Errorf("the commit status: %w", err))
	}
	return errors.Join(errs...)
}
