//go:build linux

package sharing

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// Rounds is how many times each configuration runs (fresh processes
// each time); the samples are the rounds.
func Rounds(fast bool) int {
	if fast {
		return 3
	}
	return 5
}

// workerTimeout bounds how long a worker may take to get ready or to finish.
var workerTimeout = 2 * time.Minute

// Run runs the selected benchmarks of the sharing suite with worker
// processes started as o.Worker says. The non-MPS configurations run first;
// then a private MPS daemon is started for the rest and always stopped and
// reaped before Run returns, also on failure and when ctx is
// cancelled (perfgate cancels it on SIGINT and SIGTERM).
func Run(ctx context.Context, o suite.Options) (out []model.Benchmark, err error) {
	if len(o.Worker) == 0 {
		return nil, errors.New("sharing: no worker command (Options.Worker)")
	}
	sel := suite.Select(Suite, o)
	slices.SortStableFunc(sel, func(a, b suite.Selected) int { return boolInt(a.Mode == MPS) - boolInt(b.Mode == MPS) })
	var d *mpsDaemon
	var mpsErr error
	defer func() {
		if d == nil {
			return
		}
		var killed *mpsKilledError
		switch serr := d.stop(); {
		case errors.As(serr, &killed) && o.Progress != nil:
			o.Progress("sharing: " + killed.Error())
		case serr != nil && !errors.As(serr, &killed) && err == nil:
			err = serr
		}
	}()
	control := o.MPSControl
	if control == "" {
		control = "nvidia-cuda-mps-control"
	}
	if slices.ContainsFunc(sel, func(s suite.Selected) bool { return s.Case.Op == "partition" }) {
		bs, err := runMIG(ctx, o, listMIG(ctx))
		if out = append(out, bs...); err != nil {
			return out, err
		}
	}
	for _, s := range sel {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if s.Mode == MPS && d == nil && mpsErr == nil {
			d, mpsErr = startMPS(control)
		}
		var b model.Benchmark
		if s.Mode == MPS && mpsErr != nil {
			b = suite.ErrorBenchmark(s.Case, s.Mode, mpsErr)
		} else {
			var env []string
			if s.Mode == MPS {
				env = d.mpsEnv()
			}
			b = measureConfig(ctx, o, s.Case, s.Mode, env)
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		if o.Progress != nil {
			o.Progress(suite.ProgressLine(b))
		}
		out = append(out, b)
	}
	finish(out)
	return out, nil
}

// runMIG runs the GPU-filling workload alone on each MIG instance that o's
// filter keeps, without MPS.
func runMIG(ctx context.Context, o suite.Options, ms []migInstance) ([]model.Benchmark, error) {
	var out []model.Benchmark
	cs, uuids := migCases(ms)
	for i, c := range cs {
		if o.Filter != nil && !o.Filter.MatchString("sharing/"+c.Name(MIG)) {
			continue
		}
		b := measureConfig(ctx, o, c, MIG, []string{"CUDA_VISIBLE_DEVICES=" + uuids[i]})
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if o.Progress != nil {
			o.Progress(suite.ProgressLine(b))
		}
		out = append(out, b)
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// measureConfig runs one configuration for its rounds.
func measureConfig(ctx context.Context, o suite.Options, c suite.Case, mode string, env []string) model.Benchmark {
	procs, w, extra := plan(c, o.Fast)
	if mode == MPS {
		env = append(env, extra...)
	}
	t0 := time.Now()
	var walls []float64
	var each [][]float64
	spec, err := w.Spec()
	if err != nil {
		return suite.ErrorBenchmark(c, mode, err)
	}
	for r := 0; r < Rounds(o.Fast); r++ {
		wall, times, err := runRound(ctx, append(slices.Clone(o.Worker), spec), procs, mode == Sequential, env)
		if err != nil {
			return suite.ErrorBenchmark(c, mode, err)
		}
		walls, each = append(walls, wall), append(each, times)
	}
	b := model.Benchmark{Suite: c.Suite, Name: c.Name(mode), Params: c.ResultParams(mode), Unit: "us", Better: model.Lower,
		Metrics: map[string]float64{}, Info: map[string]string{
			"mode": mode, "timing": "host wall clock from the go signal to the last worker's result; sample = µs per kernel over all processes",
			"work":  fmt.Sprintf("%d launches × %d blocks × %d threads × %d FMAs per process", w.Launches, w.Blocks, w.Threads, w.Iters),
			"procs": strconv.Itoa(procs), "took": time.Since(t0).Round(time.Millisecond).String(),
			"stop": fmt.Sprintf("rounds %d (fresh processes each)", len(walls))}}
	switch {
	case mode == MIG:
		b.Info["partition"] = "a MIG instance (" + env[0] + ")"
	case c.Op == "partition":
		b.Info["partition"] = "simulated: " + extra[0] + " under MPS (the MIG stand-in)"
	}
	stats(&b, procs, w.Launches, walls, each)
	return b
}

// A worker is one running worker process.
type worker struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
}

// A lockedBuffer is a worker's stderr, written by os/exec's copying
// goroutine and read by ours.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// runRound starts procs workers, waits until all are ready, then lets
// them run one after another (sequential) or all at once, and returns the
// wall time from the first go to the last result and each worker's own time,
// in µs. Every worker is waited for (reaped) before it returns.
func runRound(ctx context.Context, argv []string, procs int, sequential bool, env []string) (wall float64, each []float64, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ws := make([]*worker, 0, procs)
	defer func() {
		if err != nil {
			cancel() // kills the workers still running (exec.CommandContext)
		}
		stop := time.AfterFunc(workerTimeout, cancel)
		defer stop.Stop()
		for _, w := range ws {
			w.in.Close()
			if werr := w.cmd.Wait(); werr != nil && err == nil {
				err = fmt.Errorf("sharing worker: %v: %s", werr, tail(w.stderr.Bytes()))
			}
		}
	}()
	for i := 0; i < procs; i++ {
		w, err := startWorker(ctx, argv, env)
		if err != nil {
			return 0, nil, err
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		if line, err := w.next(ctx); err != nil || line != "ready" {
			return 0, nil, w.failure("get ready", line, err)
		}
	}
	each = make([]float64, procs)
	t0 := time.Now()
	for i, w := range ws {
		if _, err := io.WriteString(w.in, "go\n"); err != nil {
			return 0, nil, w.failure("start", "", err)
		}
		if sequential {
			if each[i], err = w.result(ctx); err != nil {
				return 0, nil, err
			}
		}
	}
	if !sequential {
		for i, w := range ws {
			if each[i], err = w.result(ctx); err != nil {
				return 0, nil, err
			}
		}
	}
	if sequential {
		for _, e := range each {
			wall += e
		}
		return wall, each, nil
	}
	return float64(time.Since(t0).Nanoseconds()) / 1e3, each, nil
}

func startWorker(ctx context.Context, argv []string, env []string) (*worker, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	w := &worker{cmd: cmd, lines: make(chan string, 4), stderr: &lockedBuffer{}}
	cmd.Stderr = w.stderr
	var err error
	if w.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sharing: start worker %s: %w", argv[0], err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w, nil
}

// next returns the worker's next line of output.
func (w *worker) next(ctx context.Context) (string, error) {
	select {
	case l, ok := <-w.lines:
		if !ok {
			return "", io.EOF
		}
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(workerTimeout):
		return "", fmt.Errorf("no answer within %v", workerTimeout)
	}
}

// result reads the worker's result line and returns its own elapsed µs.
func (w *worker) result(ctx context.Context) (float64, error) {
	line, err := w.next(ctx)
	var r Result
	if err == nil {
		err = json.Unmarshal([]byte(line), &r)
	}
	if err != nil || r.ElapsedUS <= 0 {
		return 0, w.failure("run", line, err)
	}
	return r.ElapsedUS, nil
}

func (w *worker) failure(what, line string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	time.Sleep(50 * time.Millisecond) // let its stderr arrive
	return fmt.Errorf("sharing worker did not %s (said %q, %v): %s", what, line, err, tail(w.stderr.Bytes()))
}

// tail returns the last line of a worker's stderr, quoted (it is hostile).
func tail(b []byte) string {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	if len(b) > 300 {
		b = b[len(b)-300:]
	}
	return strconv.Quote(string(b))
}
