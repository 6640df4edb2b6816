package main

import (
	"context"
	"os"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/kernels/sharing"
)

func init() {
	commands.Register(&cli.Command{Name: "worker", Run: runWorker})
}

// runWorker runs one sharing-suite workload: it says "ready" on stdout,
// waits for a line on stdin, runs, and writes its result as one JSON line.
func runWorker(ctx context.Context, args []string, e *cli.Env) error {
	w, err := parseWorker(args, e)
	if err != nil {
		return err
	}
	return kernels.SharingWorker(ctx, w, e.Getenv(cacheEnv), os.Stdin, e.Stdout)
}

// parseWorker reads a worker's workload from its flags, or from its spec
// (--spec and the spec's JSON).
func parseWorker(args []string, e *cli.Env) (kernels.SharingWork, error) {
	var w kernels.SharingWork
	fs := cli.NewFlagSet(e, "worker", "--blocks N --threads N --iters N --launches N")
	fs.IntVar(&w.Blocks, "blocks", 0, "blocks per launch")
	fs.IntVar(&w.Threads, "threads", 0, "threads per block")
	fs.IntVar(&w.Iters, "iters", 0, "dependent FMAs per thread")
	fs.IntVar(&w.Launches, "launches", 0, "back-to-back launches to time")
	spec := fs.Bool("spec", false, "read the workload from the argument after the flags: its JSON spec (internal/childspec), in place of the other flags")
	if err := cli.ParseFlags(fs, args); err != nil {
		return w, err
	}
	switch {
	case *spec && (fs.NArg() != 1 || len(cli.FlagsGiven(fs)) > 1):
		return w, cli.UsageErrorf("worker: --spec takes the spec as its one argument, and no other flags")
	case *spec:
		if err := childspec.Decode([]byte(fs.Arg(0)), sharing.SpecVersion, &w); err != nil {
			return w, cli.UsageErrorf("worker: --spec: %w", err)
		}
	case fs.NArg() > 0:
		return w, cli.UsageErrorf("worker: unexpected argument %q", fs.Arg(0))
	}
	return w, nil
}
