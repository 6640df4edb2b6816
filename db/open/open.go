// Package open owns opening the history store a command names: the
// Postgres database (package db) when a URL is given, else the embedded
// directory store (db/filestore), with every database call bounded by a
// timeout. It is the one place that chooses between them; tracker
// packages see only the interfaces of tracker/history. It never prints.
package open

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// DefaultTimeout bounds each database operation (open, record, baseline,
// trend, prune) unless the caller says otherwise: a stalled server must
// end in a failure (and a spooled run), never a hung job.
const DefaultTimeout = 5 * time.Minute

// Options name the store.
type Options struct {
	URL     string        // a Postgres URL or DSN; wins over Dir
	Dir     string        // the embedded store's directory
	Timeout time.Duration // each database operation's deadline (0: DefaultTimeout)
	// Warn is told of damage the embedded store skipped or repaired
	// (filestore.Options.Warn); nil drops the warnings.
	Warn func(msg string)
	// Existing: the command reads or deletes history only (trend, site,
	// prune), so an embedded store directory that holds no store is an
	// input error, not empty history: a mistyped --store read as no runs,
	// and prune reported "deleted 0 run(s)" into a store it created.
	Existing bool
}

// Store opens the store o names. The caller closes it. A malformed URL or
// an empty directory name is an input error; an unreachable server an
// infrastructure error; a schema to migrate a *db.SchemaError.
func Store(ctx context.Context, o Options) (history.Store, error) {
	if o.URL == "" {
		if o.Dir == "" {
			return nil, &model.InputError{Msg: "empty store directory name"}
		}
		if o.Existing && !filestore.IsStore(o.Dir) {
			return nil, &model.InputError{File: o.Dir, Msg: "no perfgate store here (perfgate record creates one): check the path"}
		}
		return filestore.OpenWith(o.Dir, filestore.Options{Warn: o.Warn})
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	st, err := bounded(ctx, timeout, "connect to database", func(ctx context.Context) (*db.Store, error) { return db.Open(ctx, o.URL) })
	if err != nil {
		return nil, err
	}
	return &deadlineStore{st: st, timeout: timeout}, nil
}

// A deadlineStore bounds every call into a database store by a timeout,
// so a server that stops answering (a stalled backend, a dead network
// path without a reset) fails the call instead of hanging the command.
type deadlineStore struct {
	st      *db.Store
	timeout time.Duration
}

var _ history.Store = (*deadlineStore)(nil)

// bounded runs f under the deadline and names the deadline when it is
// what ended the call.
func bounded[T any](ctx context.Context, d time.Duration, op string, f func(context.Context) (T, error)) (T, error) {
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := f(cctx)
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		err = &model.InfraError{Op: op, Err: &TimeoutError{After: d, Err: err}}
	}
	return v, err
}

// A TimeoutError is a database operation cut off by the deadline.
type TimeoutError struct {
	After time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("the database did not answer within %s (%s, PERFGATE_DB_TIMEOUT)", e.After, model.Flag("db-timeout"))
}

func (e *TimeoutError) Unwrap() error { return e.Err }

func (s *deadlineStore) Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error) {
	return bounded(ctx, s.timeout, "record run "+r.Run.ID, func(ctx context.Context) (model.RecordOutcome, error) { return s.st.Record(ctx, r) })
}

func (s *deadlineStore) RecordSource(ctx context.Context, src *resultsjson.Source) (model.RecordOutcome, error) {
	return bounded(ctx, s.timeout, "record run "+src.Run.ID, func(ctx context.Context) (model.RecordOutcome, error) { return s.st.RecordSource(ctx, src) })
}

func (s *deadlineStore) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	return bounded(ctx, s.timeout, "read the baseline", func(ctx context.Context) (*model.Baseline, error) { return s.st.Baseline(ctx, q) })
}

func (s *deadlineStore) Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	return bounded(ctx, s.timeout, "read the trend", func(ctx context.Context) ([]model.TrendSeries, error) { return s.st.Trend(ctx, q) })
}

func (s *deadlineStore) Prune(ctx context.Context, q model.PruneQuery) (model.PruneResult, error) {
	return bounded(ctx, s.timeout, "prune", func(ctx context.Context) (model.PruneResult, error) { return s.st.Prune(ctx, q) })
}

// RecordComparison keeps a comparison (check.ComparisonRecorder): the
// Postgres store does.
func (s *deadlineStore) RecordComparison(ctx context.Context, c *model.ComparisonRecord) (int64, error) {
	return bounded(ctx, s.timeout, "record the comparison", func(ctx context.Context) (int64, error) { return s.st.RecordComparison(ctx, c) })
}

func (s *deadlineStore) Close() error { return s.st.Close() }

// Migrate brings the database at url to this perfgate's schema (db.Migrate)
// under the deadline (0: DefaultTimeout); progress is told each migration
// applied.
func Migrate(ctx context.Context, url string, timeout time.Duration, progress func(seq int32, name string)) (db.MigrateResult, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return bounded(ctx, timeout, "migrate", func(ctx context.Context) (db.MigrateResult, error) {
		return db.Migrate(ctx, url, progress)
	})
}

// SaveShard and Shards keep the reports of a sharded job's shards
// (history.ShardStore).
func (s *deadlineStore) SaveShard(ctx context.Context, r model.ShardReport) error {
	_, err := bounded(ctx, s.timeout, "save the shard report", func(ctx context.Context) (struct{}, error) { return struct{}{}, s.st.SaveShard(ctx, r) })
	return err
}

func (s *deadlineStore) Shards(ctx context.Context, set string) ([]model.ShardReport, error) {
	return bounded(ctx, s.timeout, "read the shard reports", func(ctx context.Context) ([]model.ShardReport, error) { return s.st.Shards(ctx, set) })
}

// AddReset records a re-baseline point (perfgate baseline reset).
func (s *deadlineStore) AddReset(ctx context.Context, r model.Reset) error {
	_, err := bounded(ctx, s.timeout, "record the baseline reset", func(ctx context.Context) (struct{}, error) { return struct{}{}, s.st.AddReset(ctx, r) })
	return err
}

// Resets lists the re-baseline points (history.ResetSource).
func (s *deadlineStore) Resets(ctx context.Context) ([]model.Reset, error) {
	return bounded(ctx, s.timeout, "read the baseline resets", func(ctx context.Context) ([]model.Reset, error) { return s.st.Resets(ctx) })
}

// AddAcceptance records a regression accepted on a pull request
// (/perfgate accept).
func (s *deadlineStore) AddAcceptance(ctx context.Context, a model.Acceptance) error {
	_, err := bounded(ctx, s.timeout, "record the acceptance", func(ctx context.Context) (struct{}, error) { return struct{}{}, s.st.AddAcceptance(ctx, a) })
	return err
}

// Acceptances lists the acceptances of a pull request (0: of every one).
func (s *deadlineStore) Acceptances(ctx context.Context, repo string, pr int) ([]model.Acceptance, error) {
	return bounded(ctx, s.timeout, "read the acceptances", func(ctx context.Context) ([]model.Acceptance, error) { return s.st.Acceptances(ctx, repo, pr) })
}
