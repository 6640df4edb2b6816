package history

import (
	"context"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A Recorder stores runs. Recording a run whose ID is already stored with
// the same content is a no-op (model.Duplicate); with other content it fails
// with a *model.ConflictError. A run is visible entirely or not at all.
type Recorder interface {
	Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error)
}

// A SourceRecorder stores runs read a benchmark at a time (resultsjson.Source),
// as Recorder does; a store's Record is its RecordSource of the run held in
// memory (resultsjson.SourceOf).
type SourceRecorder interface {
	RecordSource(ctx context.Context, src *resultsjson.Source) (model.RecordOutcome, error)
}

// A BaselineSource finds the runs a candidate is judged against.
type BaselineSource interface {
	Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error)
}

// A TrendSource reads the history of benchmarks over time.
type TrendSource interface {
	Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error)
}

// A Pruner deletes old history.
type Pruner interface {
	Prune(ctx context.Context, q model.PruneQuery) (model.PruneResult, error)
}

// A ShardStore keeps the reports of a sharded job's shards (the action's
// shards); both stores implement it.
type ShardStore interface {
	SaveShard(ctx context.Context, r model.ShardReport) error
	Shards(ctx context.Context, set string) ([]model.ShardReport, error)
}

// A Store is the whole history store: the embedded directory store and the
// Postgres store both implement it and pass the same contract tests
// (package tracker/storetest).
type Store interface {
	Recorder
	SourceRecorder
	BaselineSource
	TrendSource
	Pruner
	Close() error
}
