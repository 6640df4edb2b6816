//go:build linux

package sharing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	becomeSubreaper()
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

// stop asks the daemon to quit (it stops its server first), waits up to
// mpsQuitWait, then kills what is left of its process group — the server
// too, which can outlive a killed daemon — and reaps all of it (perfgate is
// a child subreaper while MPS runs, so an orphaned server becomes its child
// rather than a defunct process nobody waits for). It is safe to call more
// than once. A daemon that had to be killed is an *mpsKilledError: gone,
// but worth saying; processes still in its group afterwards are an error.
func (d *mpsDaemon) stop() error {
	if d.cmd == nil {
		return nil
	}
	pgid := d.cmd.Process.Pid
	var notes []string
	wait := mpsQuitWait
	select {
	case err := <-d.exited:
		d.exited <- err
	default:
		q := exec.Command(d.control)
		q.Env = append(os.Environ(), d.mpsEnv()...)
		q.Stdin = strings.NewReader("quit\n")
		if err := runWithin(q, mpsQuitWait); err != nil {
			notes, wait = append(notes, "quit: "+err.Error()), 0
		}
	}
	select {
	case <-d.exited:
	case <-time.After(wait):
		killGroup(pgid)
		<-d.exited
		notes = append(notes, fmt.Sprintf("the control daemon did not quit within %v and was killed", mpsQuitWait))
	}
	killGroup(pgid) // a server that outlived the daemon
	reapGroup(pgid, 5*time.Second)
	d.cmd = nil
	os.RemoveAll(d.dir)
	if left := groupMembers(pgid); len(left) > 0 {
		return fmt.Errorf("MPS: processes %v of the daemon's group are still there after SIGKILL (zombies whose parent does not reap them?)", left)
	}
	if len(notes) > 0 {
		return &mpsKilledError{strings.Join(notes, "; ")}
	}
	return nil
}

// An mpsKilledError says that the MPS daemon did not stop when asked and
// was killed; nothing of it is left.
type mpsKilledError struct{ detail string }

func (e *mpsKilledError) Error() string { return "MPS: " + e.detail + "; nothing of it is left" }

// subreaper makes perfgate a child subreaper (PR_SET_CHILD_SUBREAPER), once.
var subreaper sync.Once

func becomeSubreaper() {
	subreaper.Do(func() { syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0) })
}

// reapGroup waits for (reaps) perfgate's children in process group pgid
// until none is left or limit has passed.
func reapGroup(pgid int, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.EINTR || pid > 0:
		case err != nil: // ECHILD: no child of ours is in the group
			return
		default: // children in the group, none exited yet
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// groupMembers returns the PIDs of the processes (zombies included) in
// process group pgid, from /proc.
func groupMembers(pgid int) []int {
	group := strconv.Itoa(pgid)
	return procPIDs("stat", func(b []byte) bool {
		// pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		return len(f) > 2 && f[2] == group
	})
}

// procPIDs returns the PIDs whose /proc/PID/file match says yes to.
func procPIDs(file string, match func([]byte) bool) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), file))
		if err == nil && match(b) {
			pids = append(pids, pid)
		}
	}
	return pids
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

// MPSRunning returns the PIDs of processes whose command line starts with
// one of the MPS executables (for tests and checks; /proc only).
func MPSRunning() []int {
	return procPIDs("cmdline", func(b []byte) bool {
		arg0, _, _ := strings.Cut(string(b), "\x00")
		return strings.HasPrefix(filepath.Base(arg0), "nvidia-cuda-mps")
	})
}

// daemonAttr puts the daemon in a process group of its own (so that stop can
// kill its server too) and has the kernel kill it if perfgate dies first.
func daemonAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
