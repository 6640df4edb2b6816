//go:build cuda

package kernels

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

// A gpuMonitor reads the SM clock and clock-event reasons through NVML
// (libnvidia-ml, part of the driver). Without NVML it reports 0 clocks, and
// the run says so in its environment.
type gpuMonitor struct {
	dev     nvml.Device
	ok      bool
	last    time.Time
	clock   float64
	reasons uint64 // OR of the reasons seen since reset, gpu_idle excepted
	latest  uint64 // the reasons of the latest read (at most 1 ms old)
}

var _ measure.Monitor = (*gpuMonitor)(nil)

// openMonitor finds the NVML device with the given CUDA UUID ("GPU-…").
func openMonitor(uuid string) (*gpuMonitor, error) {
	if r := nvml.Init(); r != nvml.SUCCESS {
		return &gpuMonitor{}, fmt.Errorf("nvml init: %v", r)
	}
	d, r := nvml.DeviceGetHandleByUUID(uuid)
	if r != nvml.SUCCESS {
		return &gpuMonitor{}, fmt.Errorf("nvml device %s: %v", uuid, r)
	}
	return &gpuMonitor{dev: d, ok: true}, nil
}

// Sample returns the SM clock in MHz, reading NVML at most once a
// millisecond (a read costs tens of µs; a sample's clock is at most 1 ms old).
func (m *gpuMonitor) Sample() float64 {
	if !m.ok {
		return 0
	}
	if now := time.Now(); now.Sub(m.last) >= time.Millisecond {
		m.last = now
		if c, r := m.dev.GetClockInfo(nvml.CLOCK_SM); r == nvml.SUCCESS {
			m.clock = float64(c)
		}
		if why, r := m.dev.GetCurrentClocksEventReasons(); r == nvml.SUCCESS {
			m.latest = why
			m.reasons |= why &^ uint64(nvml.ClocksEventReasonGpuIdle)
		}
	}
	return m.clock
}

// ThrottledNow reports whether the latest read (by Sample) saw a power or
// thermal clock-event reason; false without NVML.
func (m *gpuMonitor) ThrottledNow() bool { return m.ok && measure.Throttled(m.latest) }

// TakeReasons returns the reasons seen since the last call and clears them.
func (m *gpuMonitor) TakeReasons() []string {
	r := clockReasons(m.reasons)
	m.reasons = 0
	return r
}

// SMClock reads the SM clock now (0 without NVML).
func (m *gpuMonitor) SMClock() float64 {
	m.last = time.Time{}
	return m.Sample()
}

func (m *gpuMonitor) close() {
	if m.ok {
		nvml.Shutdown()
	}
}

// describe adds NVML's view of the GPU to env.
func (m *gpuMonitor) describe(env map[string]string) {
	if !m.ok {
		env[EnvNVMLAvailable] = "no"
		return
	}
	env[EnvNVMLAvailable] = "yes"
	d := m.dev
	if v, r := nvml.SystemGetDriverVersion(); r == nvml.SUCCESS {
		env[model.EnvDriver] = v
	}
	u32 := func(key string, v uint32, r nvml.Return) {
		if r == nvml.SUCCESS {
			env[key] = strconv.FormatUint(uint64(v), 10)
		}
	}
	v, r := d.GetClockInfo(nvml.CLOCK_SM)
	u32(EnvSMClock, v, r)
	v, r = d.GetMaxClockInfo(nvml.CLOCK_SM)
	u32(EnvSMClockMax, v, r)
	v, r = d.GetClockInfo(nvml.CLOCK_MEM)
	u32(EnvMemClock, v, r)
	v, r = d.GetMaxClockInfo(nvml.CLOCK_MEM)
	u32(EnvMemClockMax, v, r)
	v, r = d.GetTemperature(nvml.TEMPERATURE_GPU)
	u32(EnvTemperature, v, r)
	if mw, r := d.GetPowerManagementLimit(); r == nvml.SUCCESS {
		env[EnvPowerLimitW] = strconv.FormatFloat(float64(mw)/1000, 'f', 0, 64)
	}
	m.describeSettings(env)
}

// describeSettings adds ECC, MIG, compute mode, persistence, clock reasons and
// the other processes on the GPU.
func (m *gpuMonitor) describeSettings(env map[string]string) {
	d := m.dev
	onOff := func(s nvml.EnableState) string {
		if s == nvml.FEATURE_ENABLED {
			return "enabled"
		}
		return "disabled"
	}
	if cur, _, r := d.GetEccMode(); r == nvml.SUCCESS {
		env[EnvECC] = onOff(cur)
	}
	if cur, _, r := d.GetMigMode(); r == nvml.SUCCESS {
		env[EnvMIG] = onOff(nvml.EnableState(cur))
	}
	if p, r := d.GetPersistenceMode(); r == nvml.SUCCESS {
		env[EnvPersistence] = onOff(p)
	}
	if cm, r := d.GetComputeMode(); r == nvml.SUCCESS {
		env[EnvComputeMode] = map[nvml.ComputeMode]string{nvml.COMPUTEMODE_DEFAULT: "default",
			nvml.COMPUTEMODE_EXCLUSIVE_THREAD: "exclusive_thread", nvml.COMPUTEMODE_PROHIBITED: "prohibited",
			nvml.COMPUTEMODE_EXCLUSIVE_PROCESS: "exclusive_process"}[cm]
	}
	if why, r := d.GetCurrentClocksEventReasons(); r == nvml.SUCCESS {
		env[EnvClockReasons] = strings.Join(clockReasons(why), ",")
		if why == 0 {
			env[EnvClockReasons] = "none"
		}
	}
	if ps, r := d.GetComputeRunningProcesses(); r == nvml.SUCCESS {
		env[EnvOtherProcs] = otherProcesses(ps)
	}
}

// otherProcesses lists the compute processes on the GPU other than this one.
func otherProcesses(ps []nvml.ProcessInfo) string {
	var out []string
	for _, p := range ps {
		if int(p.Pid) == ownPid {
			continue
		}
		out = append(out, fmt.Sprintf("pid %d (%d MiB)", p.Pid, p.UsedGpuMemory>>20))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}
