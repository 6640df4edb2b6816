package kernels

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// EnvGOMAXPROCS is the run.env key of the Go scheduler's parallelism, which
// host benchmarks (cmdpath mode=host) depend on.
const EnvGOMAXPROCS = "gomaxprocs"

// HostEnv is the environment fingerprint of a run with no GPU in it: the
// CPU, Go and its parallelism.
func HostEnv() map[string]string {
	return map[string]string{EnvCPU: cpuModel(), EnvGo: runtime.Version(),
		EnvGOMAXPROCS: strconv.Itoa(runtime.GOMAXPROCS(0)), "os_arch": runtime.GOOS + "/" + runtime.GOARCH}
}

// cpuModel returns the CPU's model name from /proc/cpuinfo (GOARCH elsewhere).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
