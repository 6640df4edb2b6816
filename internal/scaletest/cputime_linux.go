package scaletest

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// cost returns the CPU time op takes on its thread, which the goroutine is
// locked to. Unlike the wall time, it does not count the time other
// processes hold the CPU: under load a short op can run between two
// preemptions while a longer one never does: on a loaded 2-core runner
// 4× the input once took 14× the wall time.
func cost(op func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	op()
	return threadCPU() - start
}

func threadCPU() time.Duration {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		panic("scaletest: clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + errno.Error())
	}
	return time.Duration(ts.Nano())
}
