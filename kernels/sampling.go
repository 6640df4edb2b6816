package kernels

import (
	"context"
	"errors"
	"time"
)

// The measuring loop is free of CUDA: it asks a timer for the GPU time of
// repetitions of one prepared benchmark and a monitor for the SM clock, and
// decides everything else (warm-up, batch size, samples, pacing, when to
// stop). The CUDA implementation is timing_cuda.go; tests drive it with a
// fake (sampling_test.go).

// A timer times repetitions of one prepared benchmark's work on the GPU.
type timer interface {
	// issue runs n repetitions as the CPU issues them (no blocking kernel)
	// and returns their GPU time: the warm-up's rough per-repetition time.
	issue(n int) (time.Duration, error)
	// held queues n repetitions behind the blocking kernel, after an L2
	// flush when cold, releases them and returns the GPU time between the
	// events; errBlockTimeout when the blocking kernel gave up first.
	held(n int, cold bool) (time.Duration, error)
}

// A monitor reads the SM clock and its clock-event reasons (NVML).
type monitor interface {
	smClock() float64      // read now (MHz; 0: unknown)
	sample() float64       // read at most once a millisecond, after a sample
	throttledNow() bool    // the latest read saw a power or thermal reason
	takeReasons() []string // the reasons seen since the last call
}

const (
	minWarmup   = 25 * time.Millisecond
	maxWarmup   = 2 * time.Second
	warmChunk   = 5 * time.Millisecond
	batchTarget = time.Millisecond
	batchLimit  = 1 << 20
)

// blockedLimit caps the launches queued behind the blocking kernel: the
// driver's launch queue holds about a thousand, and a full queue would stall
// the CPU while the GPU waits. Batches of a work of several launches hold
// blockedLimit / launches repetitions; it halves after a timeout.
const blockedLimit = 512

// maxBlockTimeouts ends a benchmark whose blocking kernel keeps timing out.
const maxBlockTimeouts = 20

// errBlockTimeout reports that the blocking kernel gave up before every
// launch of a sample was queued (the launch queue was full, or the CPU
// stalled): the sample would include CPU time and is discarded.
var errBlockTimeout = errors.New("the blocking kernel timed out before the launches were queued")

// A loop measures one prepared benchmark. now and sleep are the wall clock
// (time.Now, time.Sleep; tests pass a fake).
type loop struct {
	t     timer
	mon   monitor
	now   func() time.Time
	sleep func(time.Duration)
	// draws, when set, says from the warm GPU time of one op how many
	// contexts the benchmark is spread over (drawsFor); this loop then
	// takes one draw's share of the stop rule (stopRule.perDraw).
	draws func(perOp time.Duration) int
}

// heldLimit is the most repetitions of a work of launches launches that one
// sample may queue behind the blocking kernel as stream launches.
func heldLimit(launches int) int { return max(blockedLimit/max(launches, 1), 1) }

// graphNodes caps the launches one captured sample holds: a graph launch is
// one command in the queue, so blockedLimit does not apply, but capturing
// and instantiating a graph costs time per node.
const graphNodes = 8192

// capturedLimit is the most repetitions of a work of launches launches that
// one sample may replay from a captured graph.
func capturedLimit(launches int) int { return max(graphNodes/max(launches, 1), 1) }

// measure warms the work up and samples it in mode until the stop rule is
// met. Every sample is timed behind the blocking kernel, so the events see
// back-to-back GPU work, not the CPU's launch rate. Samples are in µs per
// op: a repetition is ops operations; a sample holds at most limit
// repetitions (heldLimit, capturedLimit). A work of more than one launch
// (multi) records its as-issued time too.
func (l loop) measure(ctx context.Context, mode string, ops, limit int, multi bool, r stopRule) (measurement, error) {
	issued, warm, err := l.warmup(ctx, r.MinWarmup)
	if err != nil {
		return measurement{}, err
	}
	per, err := l.heldPerRep(issued, limit)
	if err != nil {
		return measurement{}, err
	}
	n := 1
	if mode == ModeBatch {
		n = batchSize(per, batchTarget, limit)
	}
	m := measurement{Mode: mode, BatchN: n, Warmup: warm, PaceMode: r.Pace, Draws: 1}
	if l.draws != nil {
		if k := l.draws(per / time.Duration(max(ops, 1))); k > 1 {
			r, m.Draws = r.perDraw(k), k
		}
	}
	if multi {
		m.AsIssued = float64(issued) / 1e3 / float64(ops)
	}
	if m.Pace, err = newPacer(r.Pace); err != nil {
		return m, err
	}
	m.Pace.GiveUp = r.MaxTime / 2
	s := &sampler{rule: r}
	l.mon.takeReasons()
	t0 := l.now()
	for {
		d, err := l.t.held(n, mode == ModeCold)
		if errors.Is(err, errBlockTimeout) {
			m.BlockTimeouts++
			if n = max(n/2, 1); m.BlockTimeouts > maxBlockTimeouts {
				return m, err
			}
			m.BatchN = n
			continue
		}
		if err != nil {
			return m, err
		}
		clk := l.mon.sample()
		switch m.Pace.judge(l.mon.throttledNow(), l.now().Sub(t0)) {
		case keepSample:
			s.add(roundSample(float64(d)/1e3/float64(n*ops)), d)
			m.Clocks = append(m.Clocks, clk)
		case restartSampling:
			m.Pace.discarded(len(s.samples))
			s, m.Clocks = &sampler{rule: r}, nil
		}
		if stop, why := s.done(l.now().Sub(t0)); stop {
			m.Stop = stopDetail(why, s.cv(), r)
			break
		}
		if err := ctx.Err(); err != nil {
			return m, err
		}
		l.sleep(m.Pace.gap(d)) // the GPU idles: it is synchronized
	}
	m.Samples = s.samples
	m.Throttle = l.mon.takeReasons()
	return m, nil
}

// warmup runs the work for at least least (minWarmup when 0) and until the
// SM clock stops rising (at most maxWarmup), and returns the time of one
// repetition when warm.
func (l loop) warmup(ctx context.Context, least time.Duration) (per, took time.Duration, err error) {
	if least <= 0 {
		least = minWarmup
	}
	t0 := l.now()
	d, err := l.t.issue(1) // also the first launch: module JIT and lazy loading happen here
	if err != nil {
		return 0, 0, err
	}
	per = max(d, time.Microsecond)
	prev := l.mon.smClock()
	for {
		n := batchSize(per, warmChunk, batchLimit)
		d, err := l.t.issue(n)
		if err != nil {
			return 0, 0, err
		}
		per = max(d/time.Duration(n), time.Nanosecond)
		clk := l.mon.smClock()
		el := l.now().Sub(t0)
		if ctx.Err() != nil {
			return 0, el, ctx.Err()
		}
		if el >= maxWarmup || (el >= least && clk <= prev) {
			return per, el, nil
		}
		prev = clk
	}
}

// heldPerRep times a held batch to learn one repetition's GPU time (the
// warm-up's estimate of a tiny kernel is the CPU's launch rate).
func (l loop) heldPerRep(per time.Duration, limit int) (time.Duration, error) {
	n := batchSize(per, batchTarget, limit)
	for range 5 {
		d, err := l.t.held(n, false)
		if errors.Is(err, errBlockTimeout) {
			n = max(n/2, 1)
			continue
		}
		if err != nil {
			return 0, err
		}
		return max(d/time.Duration(n), time.Nanosecond), nil
	}
	return 0, errBlockTimeout
}

// chunkLaunches is the most launches in one chunk of a long launch
// sequence: under blockedLimit, so that a chunk always fits the launch queue
// behind the blocking kernel.
const chunkLaunches = 500

// A unitRange is the units [From, From+Count) of a launch sequence.
type unitRange struct{ From, Count int }

// chunkRanges splits total units of per launches each into consecutive
// ranges of at most chunkLaunches launches (at least one unit each). A
// sequence that fits one chunk gives none: it is timed whole.
func chunkRanges(total, per int) []unitRange {
	per = max(per, 1)
	if total*per <= chunkLaunches {
		return nil
	}
	step := max(chunkLaunches/per, 1)
	var rs []unitRange
	for from := 0; from < total; from += step {
		rs = append(rs, unitRange{from, min(step, total-from)})
	}
	return rs
}
