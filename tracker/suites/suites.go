// Package suites runs command suites: a user's shell command (go test -bench,
// a Google Benchmark binary, pytest, cargo bench, a PyTorch script) in its
// working directory with its environment and timeout, repeated R times, its
// output parsed by tracker/ingest and the repeats pooled; and python suites:
// perfgate's Python harness on a spec, its results v1 read back (python.go).
//
// Pooling never invents samples: tools that report raw samples contribute
// all of them from every repeat; tools that report only a summary contribute
// one summary per repeat, and the benchmark stays flagged SummaryOnly.
//
// It imports tracker/model, tracker/ingest and the standard library.
package suites

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Command is a command suite ready to run.
type Command struct {
	Suite string
	Run   string // a shell command line, run with sh -c
	// Root, when set, is the directory Dir must lie in once symbolic
	// links are followed (the checkout of a .perfgate.yml: a pull request
	// may write dir: ../../x, or commit a link out). "": none.
	Root   string
	Dir    string   // working directory: absolute, or relative to Root
	Origin string   // where the suite is declared, for errors ("" = the suite's name)
	Env    []string // KEY=value pairs added to Options.Env
	Format string   // an ingest format
	// Output is the file (a directory for criterion) the tool writes,
	// relative to Dir; "" means standard output.
	Output  string
	Repeat  int           // ≥ 1
	Timeout time.Duration // per repeat; 0 = none
	Unit    string        // for json-samples
	Better  model.Better  // for json-samples
	Metric  string        // for gotest: the unit whose values are the samples
}

// Options are how a Command runs.
type Options struct {
	// Env is the base environment (usually os.Environ()).
	Env []string
	// Log receives the command's standard error (and its standard output
	// when that is not what perfgate parses); nil discards it.
	Log io.Writer
	// Progress, when set, is told of each repeat as it starts.
	Progress func(line string)
}

// A RunError is a command that failed or timed out. Commands map it to an
// infrastructure failure (exit 3): the benchmark could not run.
type RunError struct {
	Suite, Run string
	Repeat     int
	Err        error
	Tail       string // the end of the command's standard error
}

func (e *RunError) Error() string {
	s := fmt.Sprintf("suite %s: repeat %d of `%s`: %v", e.Suite, e.Repeat, e.Run, e.Err)
	if e.Tail != "" {
		s += "\n" + e.Tail
	}
	return s
}

// Unwrap returns the underlying error.
func (e *RunError) Unwrap() error { return e.Err }

// Run runs c.Repeat times and returns the pooled benchmarks. A command that
// fails is a *RunError; output that does not parse is a *model.InputError
// naming the suite and the output.
func Run(ctx context.Context, c Command, o Options) ([]model.Benchmark, error) {
	if c.Repeat < 1 {
		c.Repeat = 1
	}
	dir, err := c.workDir()
	if err != nil {
		return nil, err
	}
	c.Root, c.Dir = "", dir
	parts := make([][]model.Benchmark, 0, c.Repeat)
	for r := 1; r <= c.Repeat; r++ {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("suite %s: run %d/%d: %s", c.Suite, r, c.Repeat, c.Run))
		}
		bs, err := runOnce(ctx, c, r, o)
		if err != nil {
			return nil, err
		}
		parts = append(parts, bs)
	}
	out, err := ingest.Merge(parts...)
	if err != nil {
		return nil, &model.InputError{File: "suite " + c.Suite, Msg: "cannot pool the repeats", Err: err}
	}
	for i := range out {
		if out[i].Info == nil {
			out[i].Info = map[string]string{}
		}
		out[i].Info["repeats"] = strconv.Itoa(c.Repeat)
		if out[i].SummaryOnly {
			out[i].Info["pooled"] = fmt.Sprintf("one summary per repeat (%d repeats): the tool kept no raw samples", c.Repeat)
		}
	}
	return out, nil
}

func runOnce(ctx context.Context, c Command, repeat int, o Options) ([]model.Benchmark, error) {
	outPath := ""
	if c.Output != "" {
		outPath = filepath.Join(c.Dir, c.Output)
		if c.Format != ingest.Criterion {
			// A stale file from an earlier run must not pass for this
			// run's output. It is removed through an os.Root of the
			// command's directory: a symbolic link on the way out of it
			// (output: link/file) must not make this delete another file.
			if err := removeIn(c.Dir, c.Output); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, c.badOutput(err)
			}
		}
	}
	stdout, err := execute(ctx, c, repeat, o, outPath == "")
	if err != nil {
		return nil, err
	}
	opt := ingest.Options{Suite: c.Suite, Unit: c.Unit, Better: c.Better, Metric: c.Metric}
	if outPath == "" {
		label := fmt.Sprintf("suite %s (standard output of run %d)", c.Suite, repeat)
		return ingest.Parse(c.Format, label, stdout, opt)
	}
	if err := statIn(c.Dir, c.Output); errors.Is(err, os.ErrNotExist) {
		return nil, &model.InputError{File: outPath, Msg: fmt.Sprintf("suite %s: the command succeeded but did not write its output", c.Suite), Err: err}
	} else if err != nil {
		return nil, c.badOutput(err)
	}
	return ingest.ParseFiles(c.Format, []string{outPath}, opt)
}

// removeIn removes the file name under dir, refusing a path that leads
// out of dir (os.Root: "..", symbolic links out).
func removeIn(dir, name string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return root.Remove(name)
}

// statIn stats name under dir as removeIn finds it.
func statIn(dir, name string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	_, err = root.Stat(name)
	return err
}

// badOutput is an output: path that perfgate may not touch.
func (c *Command) badOutput(err error) error {
	return &model.InputError{File: c.origin(), Path: "output", Msg: fmt.Sprintf("%q: not a file perfgate may replace inside %s", c.Output, c.Dir), Err: err}
}

func (c *Command) origin() string {
	if c.Origin != "" {
		return c.Origin
	}
	return "suite " + c.Suite
}

// workDir resolves the command's directory: Dir (under Root when
// relative), which must exist, be a directory and lie inside Root once
// symbolic links are followed. A bad one is an input error naming the
// field; without this, dir: ../../victim ran the command (and removed its
// output) there, and a missing one read "fork/exec /usr/bin/sh: no such
// file or directory".
func (c *Command) workDir() (string, error) {
	if c.Root == "" {
		return c.Dir, nil
	}
	bad := func(err error, format string, args ...any) error {
		return &model.InputError{File: c.origin(), Path: "dir", Msg: fmt.Sprintf(format, args...), Err: err}
	}
	root, err := filepath.EvalSymlinks(c.Root)
	if err != nil {
		return "", bad(err, "cannot resolve %s", c.Root)
	}
	dir := c.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(c.Root, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", bad(err, "%s: no such directory", dir)
	}
	if rel, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
		return "", bad(err, "%s is outside %s (the checkout of the configuration), so perfgate will not run a command or remove its output there", real, root)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", bad(err, "%s: not a directory", dir)
	}
	return real, nil
}

// tailBytes is how much of a failed command's standard error an error quotes.
const tailBytes = 2000

func execute(ctx context.Context, c Command, repeat int, o Options, captureStdout bool) ([]byte, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Run)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), o.Env...), c.Env...)
	setProcessGroup(cmd)
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	var stdout bytes.Buffer
	tail := &tailWriter{max: tailBytes}
	cmd.Stderr = io.MultiWriter(log, tail)
	cmd.Stdout = log
	if captureStdout {
		cmd.Stdout = &stdout
	}
	err := cmd.Run()
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out after %v", c.Timeout)
		}
		return nil, &RunError{Suite: c.Suite, Run: c.Run, Repeat: repeat, Err: err, Tail: tail.String()}
	}
	return stdout.Bytes(), nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	buf []byte
	max int
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailWriter) String() string { return string(bytes.TrimSpace(t.buf)) }
