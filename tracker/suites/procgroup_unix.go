//go:build unix

package suites

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup runs the command in its own process group so that a
// timeout or cancellation kills everything the shell started, not just sh.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}
