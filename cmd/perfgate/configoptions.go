package main

import (
	"context"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/config"
)

// loadOptionalConfig loads path, or, when path is empty, the
// .perfgate.yml config.Find finds, if any (nil: none), and warns of the
// deprecated keys it uses.
func loadOptionalConfig(ctx context.Context, e *cli.Env, path string) (*config.Config, error) {
	var cfg *config.Config
	var err error
	if path != "" {
		cfg, err = config.Load(path)
	} else {
		cfg, err = config.LoadFound(ctx, "")
	}
	for _, w := range cfg.Warnings() {
		e.Warn(w)
	}
	return cfg, err
}
