package ab

import (
	"context"

	"github.com/perfgate/perfgate/tracker/runmeta"
)

// gitIn runs git in dir and returns its trimmed standard output
// (runmeta.Git, perfgate's one git helper).
func gitIn(ctx context.Context, dir string, args ...string) (string, error) {
	return runmeta.Git(ctx, dir, args...)
}
