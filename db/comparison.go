package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// RecordComparison stores a comparison in one transaction and returns its
// id: the baseline runs it used, in order, and every benchmark's verdict.
func (s *Store) RecordComparison(ctx context.Context, c *model.ComparisonRecord) (int64, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		summary := c.Summary
		if summary == nil {
			summary = map[string]any{}
		}
		err := tx.QueryRow(ctx, `
			insert into comparisons (candidate_run_id, threshold, alpha, correction, failed, summary)
			values ($1, $2, $3, $4, $5, $6) returning id`,
			c.Candidate.ID, c.Threshold, c.Alpha, c.Correction, c.Failed, summary).Scan(&id)
		if err != nil {
			return err
		}
		base := make([][]any, len(c.Baseline))
		for i, r := range c.Baseline {
			base[i] = []any{id, i, r.ID, r.Commit, r.Branch, r.Testbed, r.StartedAt}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"comparison_baselines"},
			[]string{"comparison_id", "position", "run_id", "commit", "branch", "testbed", "started_at"},
			pgx.CopyFromRows(base)); err != nil {
			return err
		}
		res := make([][]any, len(c.Results))
		for i, v := range c.Results {
			res[i] = []any{id, v.Suite, v.Name, v.Unit, string(v.Better), v.Verdict, v.NBaseline, v.NCandidate,
				v.BaselineMedian, v.CandidateMedian, v.Change, v.CILow, v.CIHigh, v.PValue, v.PAdjusted,
				v.Threshold, v.Reason}
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"comparison_results"},
			[]string{"comparison_id", "suite", "name", "unit", "better", "verdict", "n_baseline", "n_candidate",
				"baseline_median", "candidate_median", "change", "ci_low", "ci_high", "p_value", "p_adjusted",
				"threshold", "reason"}, pgx.CopyFromRows(res))
		return err
	})
	if err != nil {
		return 0, infra("record comparison", err)
	}
	return id, nil
}

// Comparisons returns the stored comparisons of a candidate run, newest
// first, with their baseline runs and verdicts.
func (s *Store) Comparisons(ctx context.Context, candidateRunID string) ([]*model.ComparisonRecord, error) {
	rows, err := s.pool.Query(ctx, `
		select id, threshold, alpha, correction, failed, summary from comparisons
		where candidate_run_id = $1 order by created_at desc, id desc`, candidateRunID)
	if err != nil {
		return nil, infra("read comparisons", err)
	}
	var out []*model.ComparisonRecord
	var ids []int64
	var id int64
	c := &model.ComparisonRecord{}
	_, err = pgx.ForEachRow(rows, []any{&id, &c.Threshold, &c.Alpha, &c.Correction, &c.Failed, &c.Summary}, func() error {
		c.Candidate.ID = candidateRunID
		out, ids = append(out, c), append(ids, id)
		c = &model.ComparisonRecord{}
		return nil
	})
	if err != nil {
		return nil, infra("read comparisons", err)
	}
	for i, id := range ids {
		if err := s.loadComparisonParts(ctx, id, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) loadComparisonParts(ctx context.Context, id int64, c *model.ComparisonRecord) error {
	rows, err := s.pool.Query(ctx, `select run_id, commit, branch, testbed, started_at
		from comparison_baselines where comparison_id = $1 order by position`, id)
	if err != nil {
		return infra("read comparison baselines", err)
	}
	var r model.RunRef
	if _, err := pgx.ForEachRow(rows, []any{&r.ID, &r.Commit, &r.Branch, &r.Testbed, &r.StartedAt}, func() error {
		r.StartedAt = r.StartedAt.UTC()
		c.Baseline = append(c.Baseline, r)
		return nil
	}); err != nil {
		return infra("read comparison baselines", err)
	}
	rows, err = s.pool.Query(ctx, `select suite, name, unit, better, verdict, n_baseline, n_candidate,
		baseline_median, candidate_median, change, ci_low, ci_high, p_value, p_adjusted, threshold, reason
		from comparison_results where comparison_id = $1 order by suite, name`, id)
	if err != nil {
		return infra("read comparison results", err)
	}
	var v model.VerdictRecord
	if _, err := pgx.ForEachRow(rows, []any{&v.Suite, &v.Name, &v.Unit, &v.Better, &v.Verdict, &v.NBaseline,
		&v.NCandidate, &v.BaselineMedian, &v.CandidateMedian, &v.Change, &v.CILow, &v.CIHigh, &v.PValue,
		&v.PAdjusted, &v.Threshold, &v.Reason}, func() error {
		c.Results = append(c.Results, v)
		return nil
	}); err != nil {
		return infra("read comparison results", err)
	}
	return nil
}
