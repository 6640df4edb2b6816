package main

import (
	"context"

	"github.com/perfgate/perfgate/tracker/config"
)

// loadOptionalConfig loads path, or, when path is empty, the
// .perfgate.yml config.Find finds, if any (nil: none).
func loadOptionalConfig(ctx context.Context, path string) (*config.Config, error) {
	if path != "" {
		return config.Load(path)
	}
	return config.LoadFound(ctx, "")
}
