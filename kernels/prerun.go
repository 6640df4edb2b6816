package kernels

import "slices"

// A PreRunFinding is one thing perfgate doctor found before a measurement.
// Blocking findings make a run measured now unreliable (another process on
// the GPU, clocks held down, a MIG slice, a hot GPU); the rest are advice
// about the host's set-up.
type PreRunFinding struct {
	Msg      string
	Blocking bool
}

// PreRunFindings sorts the doctor's warnings for an environment into
// blocking and advisory ones, blocking first. It is pure.
func PreRunFindings(env map[string]string) []PreRunFinding {
	blocking := map[string]bool{}
	for _, w := range diagnose(blockingOnly(env)) {
		blocking[w] = true
	}
	var out []PreRunFinding
	for _, w := range diagnose(env) {
		out = append(out, PreRunFinding{Msg: w, Blocking: blocking[w]})
	}
	slices.SortStableFunc(out, func(a, b PreRunFinding) int {
		switch {
		case a.Blocking == b.Blocking:
			return 0
		case a.Blocking:
			return -1
		}
		return 1
	})
	return out
}

// blockingKeys are the environment readings whose warnings block a strict
// run: the state of the GPU right now, not how the host is set up.
var blockingKeys = []string{EnvOtherProcs, EnvMIG, EnvClockReasons, EnvTemperature}

// blockingOnly keeps the readings of blockingKeys and marks the rest as
// healthy, so that diagnose reports only blocking warnings.
func blockingOnly(env map[string]string) map[string]string {
	out := map[string]string{EnvNVMLAvailable: "yes"}
	for _, k := range blockingKeys {
		if v, ok := env[k]; ok {
			out[k] = v
		}
	}
	return out
}
