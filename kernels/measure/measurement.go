package measure

import (
	"strconv"
	"time"
)

// A Measurement is what the measuring loop produced for one benchmark in one
// mode: a timing (Cold or Batch), or where a cmdpath benchmark ran.
type Measurement struct {
	Mode     string    // the benchmark's mode= parameter
	Samples  []float64 // µs per launch (or per op for sequences), one per event pair
	Clocks   []float64 // SM clock in MHz when each sample was taken (0: unknown)
	Stop     string    // why sampling stopped (StopDetail)
	BatchN   int       // launches per event pair (1 in the cold timing)
	Throttle []string  // NVML clock-event reasons seen while sampling
	Warmup   time.Duration
	// BlockTimeouts counts samples discarded because the blocking kernel
	// timed out (the batch size was halved each time).
	BlockTimeouts int
	// Pace is how samples were spaced and how many were throttled
	// (Pacing is the pacing asked for: Budget.Pace).
	Pace   Pacer
	Pacing string
	// AsIssued is a sequence's µs per op as the CPU issued it, without the
	// blocking kernel (the warm-up's last batch), for the as_issued_us
	// metric; 0 for a single launch. It includes the CPU's launch rate,
	// which moves from process to process, so it is shown, not judged.
	AsIssued float64
	// Timing says how the samples were timed (info["timing"]).
	Timing string
	// Draws is how many contexts the benchmark is spread over (draws.go);
	// this measurement is one of them.
	Draws int
}

// RoundSample keeps 6 significant digits of a time: far below the event
// timer's resolution (about 0.5 µs per event pair, less per op when a pair
// spans many ops), and it keeps the results file compact.
func RoundSample(us float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(us, 'g', 6, 64), 64)
	return v
}

// The timings a GPU kernel is measured in, each its benchmark's mode=
// parameter: Cold flushes the L2 before every sample of one repetition,
// Batch times back-to-back repetitions per event pair.
const (
	Cold  = "cold"
	Batch = "batch"
)
