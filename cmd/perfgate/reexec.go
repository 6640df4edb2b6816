package main

import (
	"context"
	"os"
	"os/exec"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
)

// selfCommand returns the command that runs this perfgate binary with args:
// the processes of rounds, --devices workers and sharing-suite workers.
// The tests replace it (TestMain) to run the test binary as perfgate.
var selfCommand = func(ctx context.Context, args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, &model.InfraError{Op: "find the perfgate executable to start the rounds", Err: err}
	}
	return exec.CommandContext(ctx, exe, args...), nil
}

// workerCommand is the command line that starts one sharing-suite worker of
// this binary (selfCommand's); the suite appends the workload's flags. It is
// nil when the executable cannot be found, and the sharing suite says so.
func workerCommand() []string {
	cmd, err := selfCommand(context.Background(), []string{"worker", "--spec"})
	if err != nil {
		return nil
	}
	return cmd.Args
}

// listDevices lists the GPUs for --devices (tests replace it).
var listDevices = kernels.Devices

// openGPU opens the GPU of the commands that measure (nil: the runner's
// default, kernels.Open). In-process tests replace it with a fake GPU.
var openGPU runner.Opener

// newRunner returns the runner of the commands that measure: its messages
// go to e.Stderr.
func newRunner(e *cli.Env) *runner.Runner {
	return &runner.Runner{Log: e.Stderr, Version: buildVersion(), CacheDir: e.Getenv(cacheEnv), Start: startChild, OpenGPU: openGPU}
}

// cacheEnv names kernels' build cache ("": kernels' default).
const cacheEnv = "PERFGATE_CACHE"
