package history

import (
	"context"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// A ResetStore keeps re-baseline points (perfgate baseline reset); both
// stores are one.
type ResetStore interface {
	AddReset(ctx context.Context, r model.Reset) error
}

// A ResetSource lists the re-baseline points; both stores are one.
type ResetSource interface {
	Resets(ctx context.Context) ([]model.Reset, error)
}

// Reset records the re-baseline point r in st and returns what to tell the
// user. A bad reset is an *model.InputError and nothing is stored.
func Reset(ctx context.Context, st Store, r model.Reset) (string, error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	rs, ok := st.(ResetStore)
	if !ok {
		return "", fmt.Errorf("baseline reset: the store %T keeps no resets", st)
	}
	if err := rs.AddReset(ctx, r); err != nil {
		return "", err
	}
	return fmt.Sprintf("perfgate: baseline reset %q at %s by %q: runs before it feed neither the baseline nor the spread of the benchmarks it matches (kept for trend)",
		r.Glob, r.At.Format(time.RFC3339), r.Who), nil
}
