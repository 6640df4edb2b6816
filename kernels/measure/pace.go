package measure

import (
	"fmt"
	"strconv"
	"time"
)

// The pacings of Budget.Pace besides a fixed ratio.
const (
	PaceAuto = "auto" // idle only once a sample is throttled (the default)
	PaceOff  = "off"  // back-to-back samples, throttled samples kept
)

// throttleMask holds the NVML clock-event reasons that mean the GPU is
// holding its clocks down for power or heat (sw_power_cap, hw_slowdown,
// sw_thermal, hw_thermal, hw_power_brake): a sample taken under one of them
// measures the power controller, not the kernel. Idle, application clocks,
// sync boost and display clocks are not throttling.
const throttleMask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80

// Throttled reports whether an NVML clock-event reason mask holds a power
// or thermal reason.
func Throttled(mask uint64) bool { return mask&throttleMask != 0 }

// The auto Pacer's idle ratios (the first gap after a throttled sample and
// the widest) and how long the power controller gets to act: the ratio
// widens at most once per paceSettle, and samples within paceSettle after a
// throttled one are retaken (the clock comes back over about half a second
// on the H100, and NVML is read at most once a millisecond).
const (
	paceFirst  = 1.0
	paceMax    = 4.0
	paceSettle = 500 * time.Millisecond
)

// A Pacer spaces a benchmark's samples with idle time, so that sustained
// work that would run into the GPU's power limit (the power controller then
// lowers the SM clock, sample by sample, by varying amounts) averages below
// it. After each sample the GPU idles for Ratio × the sample's GPU time: at
// ratio 1 it is busy half the time.
//
// The auto rule starts with no idle time, so a GPU that is never throttled
// is timed exactly as without pacing. The first sample taken while NVML
// reports a power or thermal reason (throttled) discards the samples so far
// and sets the ratio to 1; every throttled sample, and every sample within
// paceSettle after one, is dropped and taken again. Throttling that goes on
// widens the ratio (2, 4), at most once per paceSettle. At the widest ratio,
// once it has had paceSettle to act, every sample is kept and throttled ones
// are counted: the GPU cannot hold its clock at a 20% duty cycle, and that
// is what it measures. Nor does it retake anything after GiveUp (half the
// benchmark's time budget), so a short budget still ends with samples. A
// fixed ratio (Budget.Pace "1") idles from the first sample and keeps every
// sample; PaceOff is ratio 0, samples kept.
type Pacer struct {
	Ratio  float64       // idle time after a sample, as a multiple of its GPU time
	Auto   bool          // widen Ratio when a sample is throttled
	GiveUp time.Duration // sampling time after which every sample is kept (0: never)
	// Retaken counts the samples dropped and taken again (throttled, within
	// paceSettle after a throttled one, or taken before the first throttled
	// one); Kept the throttled samples kept (at the widest ratio, or when
	// not Auto).
	Retaken, Kept int
	Idle          time.Duration // total idle time inserted
	widened       time.Duration // sampling time of the last widening
	last          time.Duration // sampling time of the last throttled sample
	seen          bool          // a throttled sample was seen
}

// A verdict is what to do with a sample: keep it, take another, or discard
// every sample so far and take another (sampling starts over, paced).
type verdict int

const (
	keepSample verdict = iota
	retakeSample
	restartSampling
)

// NewPacer returns the Pacer of a Budget.Pace value: "" or PaceAuto,
// PaceOff, or a fixed ratio ≥ 0 ("1" = idle as long as each sample ran).
func NewPacer(pace string) (Pacer, error) {
	switch pace {
	case "", PaceAuto:
		return Pacer{Auto: true}, nil
	case PaceOff:
		return Pacer{}, nil
	}
	r, err := strconv.ParseFloat(pace, 64)
	if err != nil || r < 0 || r > 100 {
		return Pacer{}, fmt.Errorf("%q is not %s, %s or an idle ratio from 0 to 100", pace, PaceAuto, PaceOff)
	}
	return Pacer{Ratio: r}, nil
}

// Judge decides about a sample taken at elapsed (time since sampling
// began) while the GPU was throttled or not.
func (p *Pacer) Judge(isThrottled bool, elapsed time.Duration) verdict {
	settled := !p.seen || elapsed-p.widened >= paceSettle
	late := p.GiveUp > 0 && elapsed >= p.GiveUp
	if !p.Auto || late || (p.Ratio >= paceMax && settled) {
		if isThrottled {
			p.Kept++
		}
		return keepSample
	}
	if !isThrottled {
		if p.seen && elapsed-p.last < paceSettle {
			p.Retaken++
			return retakeSample
		}
		return keepSample
	}
	first := !p.seen
	if settled {
		p.Ratio = min(max(paceFirst, 2*p.Ratio), paceMax)
		p.widened = elapsed
	}
	p.seen, p.last = true, elapsed
	p.Retaken++
	if first {
		return restartSampling
	}
	return retakeSample
}

// Discarded counts n samples thrown away when sampling restarted.
func (p *Pacer) Discarded(n int) { p.Retaken += n }

// Gap returns the idle time to leave after a sample that took gpu on the
// device, and adds it to the total.
func (p *Pacer) Gap(gpu time.Duration) time.Duration {
	g := time.Duration(p.Ratio * float64(gpu))
	p.Idle += g
	return g
}

// Record adds the Pacer's counts to a benchmark's metrics and info: nothing
// when it never idled and saw no throttled sample, so unthrottled runs read
// as before.
func (p *Pacer) Record(metrics map[string]float64, info map[string]string, pace string) {
	if p.Retaken > 0 {
		metrics["throttled_retaken"] = float64(p.Retaken)
	}
	if p.Kept > 0 {
		metrics["throttled_kept"] = float64(p.Kept)
	}
	if p.Ratio > 0 {
		metrics["pace_ratio"] = p.Ratio
		metrics["pace_idle_ms"] = float64(p.Idle.Microseconds()) / 1e3
	}
	if pace == "" {
		pace = PaceAuto
	}
	if p.Ratio > 0 || p.Retaken > 0 || p.Kept > 0 || pace != PaceAuto {
		info["pacing"] = fmt.Sprintf("%s: idle %g× each sample's GPU time; throttled samples %d retaken, %d kept", pace, p.Ratio, p.Retaken, p.Kept)
	}
}
