package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Runner runs suites for one perfgate command. Log and Start are required.
type Runner struct {
	// Log receives progress lines and messages (the command's stderr).
	Log io.Writer
	// Version is perfgate's version, recorded in run.env.
	Version string
	// CacheDir holds compiled PTX ("": kernels' default).
	CacheDir string
	// Start starts the perfgate processes of rounds, confirmations and
	// --devices workers.
	Start Starter
	// OpenGPU opens the GPU (nil: kernels.Open). Tests replace it.
	OpenGPU Opener
	// Env is the base environment of command suites (nil: os.Environ()).
	Env []string
}

// A GPU measures benchmarks on one device; *kernels.Session is one.
type GPU interface {
	RunSuite(ctx context.Context, name string, o kernels.Options) ([]model.Benchmark, error)
	RunUserKernel(ctx context.Context, k kernels.UserKernel, o kernels.Options) ([]model.Benchmark, error)
	// Env is the device's environment fingerprint for run.env.
	Env() map[string]string
}

var _ GPU = (*kernels.Session)(nil)

// An Opener opens the GPU and returns it with the function that releases it.
type Opener func(ctx context.Context) (GPU, func(), error)

// openKernels is the default Opener: a kernels.Session.
func openKernels(ctx context.Context) (GPU, func(), error) {
	s, err := kernels.Open(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { s.Close() }, nil
}

// A gpuHolder opens the GPU on first use, through the Runner's Opener: the
// one place a run opens the GPU. Every suite of a run shares it.
type gpuHolder struct {
	open    Opener
	version string
	gpu     GPU
	release func()
}

func (r *Runner) gpuHolder() *gpuHolder {
	open := r.OpenGPU
	if open == nil {
		open = openKernels
	}
	return &gpuHolder{open: open, version: r.Version}
}

func (g *gpuHolder) get(ctx context.Context) (GPU, error) {
	if g.gpu != nil {
		return g.gpu, nil
	}
	gpu, release, err := g.open(ctx)
	if err != nil {
		return nil, &model.InfraError{Op: "open the GPU", Err: err}
	}
	g.gpu, g.release = gpu, release
	return gpu, nil
}

// env returns the GPU's fingerprint with perfgate's own version, or nil
// when the GPU was never opened.
func (g *gpuHolder) env() map[string]string {
	if g.gpu == nil {
		return nil
	}
	env := g.gpu.Env()
	env[kernels.EnvPerfgate] = g.version
	return env
}

func (g *gpuHolder) close() {
	if g.release != nil {
		g.release()
	}
	g.gpu, g.release = nil, nil
}

func (r *Runner) baseEnv() []string {
	if r.Env != nil {
		return r.Env
	}
	return os.Environ()
}

// inputErr is a usage error: bad flags or arguments (exit 2).
func inputErr(format string, args ...any) error {
	return &model.InputError{Msg: fmt.Sprintf(format, args...)}
}

// Validate checks a document built here by the loader's rules (the same
// messages and paths a file read back would get), so nothing invalid is
// ever written.
func Validate(r *model.Results) error {
	err := r.Validate()
	var ie *model.InputError
	if errors.As(err, &ie) {
		ie.File = "the results"
	}
	return err
}

func (r *Runner) logf(format string, args ...any) { fmt.Fprintf(r.Log, format, args...) }
