//go:build !cuda

package kernels

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Session owns the CUDA context. In a binary built without CUDA it cannot be
// opened: Open returns ErrNoCUDA.
type Session struct{}

// Open fails with ErrNoCUDA: this binary was built without -tags cuda. The
// error says what this host offers a CUDA build and what is missing
// (HostCUDA.Diagnosis), as perfgate doctor and run print it.
func Open(ctx context.Context) (*Session, error) {
	lines := ProbeHostCUDA(os.Getenv, os.ReadFile, filepath.Glob).Diagnosis()
	return nil, fmt.Errorf("%w\n  %s", ErrNoCUDA, strings.Join(lines, "\n  "))
}

// Env returns nil: there is no GPU to describe.
func (s *Session) Env() map[string]string { return nil }

// RunSuite fails with ErrNoCUDA.
func (s *Session) RunSuite(ctx context.Context, name string, o Options) ([]model.Benchmark, error) {
	return nil, ErrNoCUDA
}

// RunUserKernel fails with ErrNoCUDA.
func (s *Session) RunUserKernel(ctx context.Context, k UserKernel, o Options) ([]model.Benchmark, error) {
	return nil, ErrNoCUDA
}

// Doctor fails with ErrNoCUDA.
func (s *Session) Doctor() (Report, error) { return Report{}, ErrNoCUDA }

// Close does nothing.
func (s *Session) Close() error { return nil }

// SharingWorker fails with ErrNoCUDA.
func SharingWorker(ctx context.Context, w SharingWork, cacheDir string, in io.Reader, out io.Writer) error {
	return ErrNoCUDA
}
