package kernels

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// Keys of the environment fingerprint a Session puts into run.env, beside
// model.EnvGPU, EnvDriver, EnvCUDA, EnvNVRTC and EnvCUDAHeader.
const (
	EnvGPUUUID       = "gpu_uuid"
	EnvPCIBusID      = "pci_bus_id"
	EnvSMCount       = "sm_count"
	EnvL2Bytes       = "l2_bytes"
	EnvMemoryBytes   = "memory_bytes"
	EnvCompute       = "compute_capability"
	EnvNVRTCOptions  = "nvrtc_options"
	EnvConnections   = "cuda_device_max_connections"
	EnvECC           = "ecc"
	EnvMIG           = "mig"
	EnvComputeMode   = "compute_mode"
	EnvPersistence   = "persistence"
	EnvPowerLimitW   = "power_limit_w"
	EnvSMClock       = "sm_clock_mhz"
	EnvSMClockMax    = "sm_clock_max_mhz"
	EnvMemClock      = "mem_clock_mhz"
	EnvMemClockMax   = "mem_clock_max_mhz"
	EnvTemperature   = "temperature_c"
	EnvOtherProcs    = "gpu_other_processes"
	EnvClockReasons  = "clock_event_reasons"
	EnvCPU           = "cpu"
	EnvGo            = "go"
	EnvPerfgate      = "perfgate"
	EnvCopyCeiling   = "copy_ceiling_gbps"
	EnvNVMLAvailable = "nvml"
)

// A Report is what perfgate doctor shows: the environment and the warnings
// that would make measurements on this GPU unreliable.
type Report struct {
	Env      map[string]string
	Warnings []string
}

// Diagnose returns the warnings implied by an environment fingerprint:
// what perfgate doctor shows. It is pure.
func Diagnose(env map[string]string) []string { return diagnose(env) }

// diagnose returns the warnings implied by an environment fingerprint. It
// is pure so that every rule is unit-tested.
func diagnose(env map[string]string) []string {
	var w []string
	if env[EnvNVMLAvailable] != "yes" {
		w = append(w, "NVML is not available: per-sample SM clocks and throttle reasons are not recorded, so throttled samples cannot be dropped")
	}
	if p := env[EnvOtherProcs]; p != "" && p != "none" {
		w = append(w, "other processes are using the GPU ("+p+"): they compete for SMs and memory bandwidth")
	}
	if env[EnvMIG] == "enabled" {
		w = append(w, "MIG is enabled: a MIG slice has a fraction of the SMs and bandwidth, not comparable with a whole GPU")
	}
	if env[EnvPersistence] == "disabled" {
		w = append(w, "persistence mode is off: the driver may unload between runs and the first kernels pay for re-initialisation")
	}
	if m := env[EnvComputeMode]; m != "" && m != "exclusive_process" {
		w = append(w, "compute mode is "+m+": another process can start kernels on this GPU during a run (exclusive_process prevents it)")
	}
	if r := env[EnvClockReasons]; r != "" && r != "none" && r != "gpu_idle" {
		w = append(w, "clocks are being held down right now: "+r)
	}
	if t, err := strconv.Atoi(env[EnvTemperature]); err == nil && t >= 80 {
		w = append(w, fmt.Sprintf("the GPU is at %d °C: thermal slowdown is likely under load", t))
	}
	if v := env[model.EnvCUDAHeader]; v != "" && !strings.HasPrefix(v, "13.") && !strings.HasPrefix(v, "12.") && !strings.HasPrefix(v, "11.") {
		w = append(w, "compiled against cuda.h "+v+": perfgate's copy of gorgonia.org/cu is known to work with the CUDA 11.8 to 13.x headers only")
	}
	return w
}

// clockReasonNames maps NVML clock-event reason bits to names.
var clockReasonNames = []struct {
	bit  uint64
	name string
}{
	{0x1, "gpu_idle"}, {0x2, "applications_clocks"}, {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"},
	{0x10, "sync_boost"}, {0x20, "sw_thermal"}, {0x40, "hw_thermal"}, {0x80, "hw_power_brake"},
	{0x100, "display_clocks"},
}

// clockReasons names the bits set in an NVML clock-event reason mask.
func clockReasons(mask uint64) []string {
	var out []string
	for _, r := range clockReasonNames {
		if mask&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return out
}

// headerVersion formats a CUDA_VERSION number (12080) as "12.8".
func headerVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// Write prints the report as perfgate doctor shows it: the environment,
// one key a line in key order, then the warnings.
func (r Report) Write(w io.Writer) {
	for _, k := range slices.Sorted(maps.Keys(r.Env)) {
		fmt.Fprintf(w, "  %-20s %s\n", k, r.Env[k])
	}
	if len(r.Warnings) == 0 {
		fmt.Fprintln(w, "no warnings: this GPU is set up for stable measurements")
		return
	}
	fmt.Fprintf(w, "%d warnings:\n", len(r.Warnings))
	for _, warning := range r.Warnings {
		fmt.Fprintf(w, "  - %s\n", warning)
	}
}
