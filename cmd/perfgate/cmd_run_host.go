package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// runHostSuites runs the benchmarks of the named suites that need no GPU
// (cmdpath's mode=host) with progress on stderr, and returns them with the
// host's environment fingerprint. It says how many GPU benchmarks it left out.
func runHostSuites(ctx context.Context, e *env, names []string, o kernels.Options) ([]model.Benchmark, map[string]string, error) {
	if _, gpu := kernels.CountModes(names, o); gpu > 0 {
		fmt.Fprintf(e.Stderr, "perfgate: skipping %d benchmarks that need the GPU: built without CUDA (-tags cuda); running the mode=%s ones\n",
			gpu, kernels.ModeHost)
	}
	p := newProgress(e.Stderr)
	o.Progress = p.line
	var all []model.Benchmark
	for _, name := range names {
		bs, err := kernels.RunHost(ctx, name, o)
		all = append(all, bs...)
		if err != nil {
			p.done()
			return nil, nil, &model.InfraError{Op: "run suite " + name, Err: err}
		}
	}
	p.done()
	env := kernels.HostEnv()
	env[kernels.EnvPerfgate] = buildVersion()
	reportRunHealth(e.Stderr, all)
	return all, env, nil
}
