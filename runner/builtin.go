package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// Builtin runs the named built-in suites once, in order, with progress on
// r.Log, and returns their benchmarks and the environment fingerprint for
// run.env. When no selected benchmark needs the GPU, or the binary was
// built without CUDA, it runs the host benchmarks alone (and fails when
// there are none) without opening the GPU.
func (r *Runner) Builtin(ctx context.Context, names []string, o kernels.Options) ([]model.Benchmark, map[string]string, error) {
	host, gpu := kernels.CountHostAndGPU(names, o)
	if !kernels.CUDA && host == 0 {
		return nil, nil, kernels.ErrNoCUDA
	}
	runSuite, env := kernels.RunHost, kernels.HostEnv
	if gpu > 0 && kernels.CUDA {
		g := r.gpuHolder()
		defer g.close()
		dev, err := g.get(ctx)
		if err != nil {
			return nil, nil, err
		}
		runSuite, env = dev.RunSuite, dev.Env
	} else if gpu > 0 {
		fmt.Fprintf(r.Log, "perfgate: skipping %d benchmarks that need the GPU: built without CUDA (-tags cuda); running the mode=%s ones\n",
			gpu, kernels.ModeHost)
	}
	p := NewProgress(r.Log)
	o.Progress = p.Line
	var all []model.Benchmark
	for _, name := range names {
		bs, err := runSuite(ctx, name, o)
		all = append(all, bs...)
		if err != nil {
			p.Done()
			return nil, nil, &model.InfraError{Op: "run suite " + name, Err: err}
		}
	}
	p.Done()
	runEnv := env()
	runEnv[kernels.EnvPerfgate] = r.Version
	for _, line := range Health(all) {
		fmt.Fprintln(r.Log, line)
	}
	return all, runEnv, nil
}

// CheckSuites checks names against the built-in suites.
func CheckSuites(names []string) error {
	if len(names) == 0 {
		return model.SettingError("suite", "name at least one suite (%s), or use %s", strings.Join(kernels.SuiteNames(), ", "), model.Flag("list"))
	}
	for _, n := range names {
		if !slices.Contains(kernels.SuiteNames(), n) {
			return model.SettingError("suite", "unknown suite %q (built-in suites: %s)", n, strings.Join(kernels.SuiteNames(), ", "))
		}
	}
	return nil
}

// CheckSelection fails when o's filters leave no benchmark of the named
// suites, before any GPU work: an empty results file would pass a gate.
func CheckSelection(names []string, o kernels.Options) error {
	for _, s := range kernels.ListFor(o) {
		if slices.Contains(names, s.Name) && len(s.Benchmarks) > 0 {
			return nil
		}
	}
	return inputErr("%s, %s, %s: they select no benchmark of %s (perfgate run %s with the same flags shows what they select)", model.Flag("filter"), model.Flag("op"), model.Flag("dtype"), strings.Join(names, ", "), model.Flag("list"))
}

// BuiltinUnits are the processes of one round of o's built-in suites: one
// per suite that o.Kernel leaves benchmarks in, running it as o selects
// and tunes its benchmarks (builtinChild), in the order of o.Suites.
func BuiltinUnits(o Options) []Unit {
	names := o.Suites
	var units []Unit
	for _, s := range kernels.ListFor(o.Kernel) {
		if !slices.Contains(names, s.Name) || len(s.Benchmarks) == 0 {
			continue
		}
		units = append(units, Unit{Name: s.Name, Child: builtinChild(o, []string{s.Name})})
	}
	slices.SortStableFunc(units, func(a, b Unit) int { return slices.Index(names, a.Name) - slices.Index(names, b.Name) })
	return units
}
