package main

import (
	"context"
	"flag"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/steer"
	"github.com/perfgate/perfgate/tracker/history"
)

func init() { commands.Register(&cli.Command{Name: "baseline", Run: runBaseline}) }

// runBaseline is perfgate baseline reset GLOB (steer.Baseline) on the store its flags name.
func runBaseline(ctx context.Context, args []string, e *cli.Env) error {
	var sf storeFlags // existing: a mistyped --store is refused
	return steer.Baseline(ctx, args, e, steer.Store{Register: func(fs *flag.FlagSet) { sf.register(fs, e); sf.existing = true },
		Open: func(ctx context.Context) (history.Store, error) { return openStore(ctx, sf) }})
}
