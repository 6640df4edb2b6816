package main

import (
	"context"
	"os"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
)

func init() {
	commands.Register(&cli.Command{Name: "worker", Run: runWorker})
}

// runWorker runs one sharing-suite workload: it says "ready" on stdout,
// waits for a line on stdin, runs, and writes its result as one JSON line.
func runWorker(ctx context.Context, args []string, e *cli.Env) error {
	var w kernels.SharingWork
	fs := cli.NewFlagSet(e, "worker", "--blocks N --threads N --iters N --launches N")
	fs.IntVar(&w.Blocks, "blocks", 0, "blocks per launch")
	fs.IntVar(&w.Threads, "threads", 0, "threads per block")
	fs.IntVar(&w.Iters, "iters", 0, "dependent FMAs per thread")
	fs.IntVar(&w.Launches, "launches", 0, "back-to-back launches to time")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("worker: unexpected argument %q", fs.Arg(0))
	}
	return kernels.SharingWorker(ctx, w, cacheDir(e), os.Stdin, e.Stdout)
}
