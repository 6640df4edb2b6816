package history

import (
	"context"

	"github.com/perfgate/perfgate/tracker/model"
)

// An AcceptanceStore keeps the regressions accepted on pull requests
// (/perfgate accept); both stores are one.
type AcceptanceStore interface {
	AddAcceptance(ctx context.Context, a model.Acceptance) error
	// Acceptances lists those of pull request pr of repo (pr 0: of every
	// pull request of repo), oldest first.
	Acceptances(ctx context.Context, repo string, pr int) ([]model.Acceptance, error)
}
