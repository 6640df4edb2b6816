//go:build linux

package kernels

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mpsQuitWait is how long stop waits for the daemon to quit before killing it.
var mpsQuitWait = 10 * time.Second

// An mpsDaemon is a private MPS control daemon: perfgate's own child,
// started in the foreground (-f) in a process group of its own, with pipe
// and log directories under a fresh temporary directory, so that it neither
// meets nor disturbs another MPS daemon on the machine. Stop always ends it.
type mpsDaemon struct {
	control string // the nvidia-cuda-mps-control executable
	dir     string
	cmd     *exec.Cmd
	exited  chan error
}

// mpsEnv returns the variables that point a CUDA client (or the control
// client) at the daemon.
func (d *mpsDaemon) mpsEnv() []string {
	return []string{"CUDA_MPS_PIPE_DIRECTORY=" + filepath.Join(d.dir, "pipe"),
		"CUDA_MPS_LOG_DIRECTORY=" + filepath.Join(d.dir, "log")}
}

// startMPS starts a private MPS control daemon and waits until its control
// pipe exists.
func startMPS(control string) (*mpsDaemon, error) {
	dir, err := os.MkdirTemp("", "perfgate-mps-")
	if err != nil {
		return nil, fmt.Errorf("MPS: %w", err)
	}
	d := &mpsDaemon{control: control, dir: dir, exited: make(chan error, 1)}
	for _, sub := range []string{"pipe", "log"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("MPS: %w", err)
		}
	}
	d.cmd = exec.Command(control, "-f")
	d.cmd.Env = append(os.Environ(), d.mpsEnv()...)
	d.cmd.SysProcAttr = daemonAttr()
	if err := d.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("MPS: start %s -f: %w", control, err)
	}
	go func() { d.exited <- d.cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "pipe", "control")); err == nil {
			return d, nil
		}
		select {
		case err := <-d.exited:
			d.exited <- err
			d.stop()
			return nil, fmt.Errorf("MPS: %s -f exited before its control pipe appeared: %v", control, err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			d.stop()
			return nil, errors.New("MPS: the control daemon made no control pipe within 10s")
		}
	}
}

// stop asks the daemon to quit (it stops its server first), waits up to 10 s,
// then kills whatever is left of its process group and reaps the daemon. It
// is safe to call more than once.
func (d *mpsDaemon) stop() error {
	if d.cmd == nil {
		return nil
	}
	var quitErr error
	select {
	case err := <-d.exited:
		d.exited <- err
	default:
		q := exec.Command(d.control)
		q.Env = append(os.Environ(), d.mpsEnv()...)
		q.Stdin = strings.NewReader("quit\n")
		quitErr = runWithin(q, mpsQuitWait)
	}
	var err error
	killed := false
	select {
	case err = <-d.exited:
	case <-time.After(mpsQuitWait):
		killGroup(d.cmd.Process.Pid)
		err, killed = <-d.exited, true
	}
	killGroup(d.cmd.Process.Pid) // an MPS server left behind in the group
	d.cmd = nil
	os.RemoveAll(d.dir)
	switch {
	case quitErr != nil:
		return fmt.Errorf("MPS: quit: %w (the daemon was killed)", quitErr)
	case killed:
		return fmt.Errorf("MPS: the control daemon did not quit within %v and was killed", mpsQuitWait)
	case err != nil && !isSignalExit(err):
		return fmt.Errorf("MPS: the control daemon: %w", err)
	}
	return nil
}

// runWithin runs c, killing it after limit.
func runWithin(c *exec.Cmd, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if err := c.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		c.Process.Kill()
		<-done
		return fmt.Errorf("%s did not finish within %v", c.Path, limit)
	}
}

// killGroup sends SIGKILL to the process group pgid (the daemon's).
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

func isSignalExit(err error) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return true
		}
	}
	return false
}

// mpsRunning returns the PIDs of processes whose command line starts with
// one of the MPS executables (for tests and checks; /proc only).
func mpsRunning() []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		arg0, _, _ := strings.Cut(string(b), "\x00")
		if strings.HasPrefix(filepath.Base(arg0), "nvidia-cuda-mps") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// daemonAttr puts the daemon in a process group of its own (so that stop can
// kill its server too) and has the kernel kill it if perfgate dies first.
func daemonAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
