package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// runOnDevices runs this perfgate run once per GPU that --devices names, all
// at once, each worker process seeing its GPU alone
// (CUDA_VISIBLE_DEVICES=UUID), and writes their merged results to out.
func (f *runFlags) runOnDevices(ctx context.Context, e *env, fs *flag.FlagSet, run model.Run, out string) error {
	all, err := listDevices()
	if err != nil {
		return err
	}
	devs, err := parseDevices(f.devices, all)
	if err != nil {
		return err
	}
	if err := checkOneModel(devs); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "perfgate-devices-")
	if err != nil {
		return &model.InfraError{Op: "run --devices", Err: err}
	}
	defer os.RemoveAll(dir)
	args := append(workerArgs(fs), metaArgs(run)...) // one run block for all GPUs
	var mu sync.Mutex                                // one line at a time on stderr
	errs := make([]error, len(devs))
	paths := make([]string, len(devs))
	t0 := time.Now()
	var wg sync.WaitGroup
	for i, d := range devs {
		paths[i] = filepath.Join(dir, fmt.Sprintf("gpu%d.json", d.Index))
		pw := &prefixWriter{prefix: fmt.Sprintf("[gpu %d] ", d.Index), w: e.Stderr, mu: &mu}
		cmd, err := selfCommand(ctx, append(slices.Clone(args), "--out", paths[i]))
		if err != nil {
			return err
		}
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, "CUDA_VISIBLE_DEVICES="+d.UUID)
		cmd.Stderr = pw
		// On cancellation the worker gets SIGTERM, so that it can stop what
		// it started (an MPS daemon), then SIGKILL after the delay.
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
		cmd.WaitDelay = 30 * time.Second
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("GPU %d (%s): %w", d.Index, d.UUID, err)
			}
			pw.flush()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return &model.InfraError{Op: "run --devices", Err: err}
	}
	runs := make([]deviceRun, len(devs))
	for i, d := range devs {
		r, err := model.Load(paths[i])
		if err != nil {
			return &model.InfraError{Op: fmt.Sprintf("run --devices: read GPU %d's results", d.Index), Err: err}
		}
		runs[i] = deviceRun{Device: d, Results: r}
	}
	merged, err := mergeDeviceRuns(run, runs)
	if err != nil {
		return &model.InfraError{Op: "run --devices", Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: %d GPUs in parallel, wall %v\n", len(devs), time.Since(t0).Round(time.Millisecond))
	return writeRunResults(e, out, merged)
}

// workerArgs are the arguments of one --devices worker: run, with every flag
// the user set except --devices and --out (metaArgs then give the run block).
func workerArgs(fs *flag.FlagSet) []string {
	args := []string{"run"}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "devices" && fl.Name != "out" {
			args = append(args, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	return args
}

// A prefixWriter writes whole lines to w, each with prefix, holding mu
// while it writes so that the lines of concurrent workers do not interleave.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mu     *sync.Mutex
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.mu.Lock()
		fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf[:i])
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
	}
}

// flush writes what is left of an unfinished last line.
func (p *prefixWriter) flush() {
	if len(p.buf) > 0 {
		p.Write([]byte{'\n'})
	}
}
