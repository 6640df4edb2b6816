package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// defaultDBTimeout bounds each database operation (open, record, baseline,
// trend, prune) unless --db-timeout or PERFGATE_DB_TIMEOUT says otherwise:
// a stalled server must end in exit 3 and a spooled run, never a hung job.
const defaultDBTimeout = 5 * time.Minute

// registerTimeout adds --db-timeout to fs, defaulting from
// PERFGATE_DB_TIMEOUT; parseDuration checks it after parsing.
func (sf *storeFlags) registerTimeout(fs *flag.FlagSet, e *env) {
	fs.StringVar(&sf.timeoutText, "db-timeout", envDefault(e, "PERFGATE_DB_TIMEOUT", defaultDBTimeout.String()),
		"the longest one database operation may take, e.g. 90s or 5m; past it the command exits 3 and spools the run (env PERFGATE_DB_TIMEOUT)")
}

// parseDuration reads a timeout flag or input: a Go duration ("90s",
// "5m") or whole seconds ("90"), greater than zero.
func parseDuration(name, s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.Atoi(s); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d <= 0 {
		return 0, usageError("%s: %q is not a positive duration (e.g. 30s, 5m)", name, s)
	}
	return d, nil
}

// A deadlineStore bounds every call into a database store by a timeout,
// so a server that stops answering (a stalled backend, a dead network
// path without a reset) fails the call instead of hanging the command.
type deadlineStore struct {
	st interface {
		history.Store
		comparisonRecorder
	}
	timeout time.Duration
}

var (
	_ history.Store      = (*deadlineStore)(nil)
	_ comparisonRecorder = (*deadlineStore)(nil)
)

// bounded runs f under the deadline and names the deadline when it is
// what ended the call.
func bounded[T any](ctx context.Context, d time.Duration, op string, f func(context.Context) (T, error)) (T, error) {
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := f(cctx)
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		err = &model.InfraError{Op: op, Err: &dbTimeoutError{after: d, err: err}}
	}
	return v, err
}

// A dbTimeoutError is a database operation cut off by --db-timeout.
type dbTimeoutError struct {
	after time.Duration
	err   error
}

func (e *dbTimeoutError) Error() string {
	return fmt.Sprintf("the database did not answer within %s (--db-timeout, PERFGATE_DB_TIMEOUT)", e.after)
}

func (e *dbTimeoutError) Unwrap() error { return e.err }

func (s *deadlineStore) Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error) {
	return bounded(ctx, s.timeout, "record run "+r.Run.ID, func(ctx context.Context) (model.RecordOutcome, error) { return s.st.Record(ctx, r) })
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

func (s *deadlineStore) RecordComparison(ctx context.Context, c *model.ComparisonRecord) (int64, error) {
	return bounded(ctx, s.timeout, "record the comparison", func(ctx context.Context) (int64, error) { return s.st.RecordComparison(ctx, c) })
}

func (s *deadlineStore) Close() error { return s.st.Close() }
