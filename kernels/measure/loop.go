package measure

import (
	"context"
	"errors"
	"time"
)

// A Timer times repetitions of one prepared benchmark's work on the GPU.
type Timer interface {
	// Issue runs n repetitions as the CPU issues them (no blocking kernel)
	// and returns their GPU time: the warm-up's rough per-repetition time.
	Issue(n int) (time.Duration, error)
	// Held queues n repetitions behind the blocking kernel, after an L2
	// flush when cold, releases them and returns the GPU time between the
	// events; ErrBlockTimeout when the blocking kernel gave up first.
	Held(n int, cold bool) (time.Duration, error)
}

// A Monitor reads the SM clock and its clock-event reasons (NVML).
type Monitor interface {
	SMClock() float64      // read now (MHz; 0: unknown)
	Sample() float64       // read at most once a millisecond, after a sample
	ThrottledNow() bool    // the latest read saw a power or thermal reason
	TakeReasons() []string // the reasons seen since the last call
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

// ErrBlockTimeout reports that the blocking kernel gave up before every
// launch of a sample was queued (the launch queue was full, or the CPU
// stalled): the sample would include CPU time and is discarded.
var ErrBlockTimeout = errors.New("the blocking kernel timed out before the launches were queued")

// A Loop measures one prepared benchmark. Now and Sleep are the wall clock
// (time.Now, time.Sleep; tests pass a fake).
type Loop struct {
	Timer   Timer
	Monitor Monitor
	Now     func() time.Time
	Sleep   func(time.Duration)
	// Draws, when set, says from the warm GPU time of one op how many
	// contexts the benchmark is spread over (DrawsFor); this loop then
	// takes one draw's share of the stop rule (Rule.PerDraw).
	Draws func(perOp time.Duration) int
}

// HeldLimit is the most repetitions of a work of launches launches that one
// sample may queue behind the blocking kernel as stream launches.
func HeldLimit(launches int) int { return max(blockedLimit/max(launches, 1), 1) }

// graphNodes caps the launches one captured sample holds: a graph launch is
// one command in the queue, so blockedLimit does not apply, but capturing
// and instantiating a graph costs time per node.
const graphNodes = 8192

// CapturedLimit is the most repetitions of a work of launches launches that
// one sample may replay from a captured graph.
func CapturedLimit(launches int) int { return max(graphNodes/max(launches, 1), 1) }

// Measure warms the work up and samples it in timing (Cold, Batch) until the stop rule is
// met. Every sample is timed behind the blocking kernel, so the events see
// back-to-back GPU work, not the CPU's launch rate. Samples are in µs per
// op: a repetition is ops operations; a sample holds at most limit
// repetitions (HeldLimit, CapturedLimit). A work of more than one launch
// (multi) records its as-issued time too.
func (l Loop) Measure(ctx context.Context, timing string, ops, limit int, multi bool, r Rule) (Measurement, error) {
	issued, warm, err := l.warmup(ctx, r.MinWarmup)
	if err != nil {
		return Measurement{}, err
	}
	per, err := l.heldPerRep(issued, limit)
	if err != nil {
		return Measurement{}, err
	}
	n := 1
	if timing == Batch {
		n = BatchSize(per, batchTarget, limit)
	}
	m := Measurement{Mode: timing, BatchN: n, Warmup: warm, Pacing: r.Pace, Draws: 1}
	if l.Draws != nil {
		if k := l.Draws(per / time.Duration(max(ops, 1))); k > 1 {
			r, m.Draws = r.PerDraw(k), k
		}
	}
	if multi {
		m.AsIssued = float64(issued) / 1e3 / float64(ops)
	}
	if m.Pace, err = NewPacer(r.Pace); err != nil {
		return m, err
	}
	m.Pace.GiveUp = r.MaxTime / 2
	s := &Sampler{Rule: r}
	l.Monitor.TakeReasons()
	t0 := l.Now()
	for {
		d, err := l.Timer.Held(n, timing == Cold)
		if errors.Is(err, ErrBlockTimeout) {
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
		clk := l.Monitor.Sample()
		switch m.Pace.Judge(l.Monitor.ThrottledNow(), l.Now().Sub(t0)) {
		case keepSample:
			s.Add(RoundSample(float64(d)/1e3/float64(n*ops)), d)
			m.Clocks = append(m.Clocks, clk)
		case restartSampling:
			m.Pace.Discarded(len(s.Samples))
			s, m.Clocks = &Sampler{Rule: r}, nil
		}
		if stop, why := s.Done(l.Now().Sub(t0)); stop {
			m.Stop = StopDetail(why, s.CV(), r)
			break
		}
		if err := ctx.Err(); err != nil {
			return m, err
		}
		l.Sleep(m.Pace.Gap(d)) // the GPU idles: it is synchronized
	}
	m.Samples = s.Samples
	m.Throttle = l.Monitor.TakeReasons()
	return m, nil
}

// warmup runs the work for at least least (minWarmup when 0) and until the
// SM clock stops rising (at most maxWarmup), and returns the time of one
// repetition when warm.
func (l Loop) warmup(ctx context.Context, least time.Duration) (per, took time.Duration, err error) {
	if least <= 0 {
		least = minWarmup
	}
	t0 := l.Now()
	d, err := l.Timer.Issue(1) // also the first launch: module JIT and lazy loading happen here
	if err != nil {
		return 0, 0, err
	}
	per = max(d, time.Microsecond)
	prev := l.Monitor.SMClock()
	for {
		n := BatchSize(per, warmChunk, batchLimit)
		d, err := l.Timer.Issue(n)
		if err != nil {
			return 0, 0, err
		}
		per = max(d/time.Duration(n), time.Nanosecond)
		clk := l.Monitor.SMClock()
		el := l.Now().Sub(t0)
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
func (l Loop) heldPerRep(per time.Duration, limit int) (time.Duration, error) {
	n := BatchSize(per, batchTarget, limit)
	for range 5 {
		d, err := l.Timer.Held(n, false)
		if errors.Is(err, ErrBlockTimeout) {
			n = max(n/2, 1)
			continue
		}
		if err != nil {
			return 0, err
		}
		return max(d/time.Duration(n), time.Nanosecond), nil
	}
	return 0, ErrBlockTimeout
}

// ChunkLaunches is the most launches in one chunk of a long launch
// sequence: under blockedLimit, so that a chunk always fits the launch queue
// behind the blocking kernel.
const ChunkLaunches = 500

// A UnitRange is the units [From, From+Count) of a launch sequence.
type UnitRange struct{ From, Count int }

// ChunkRanges splits total units of per launches each into consecutive
// ranges of at most ChunkLaunches launches (at least one unit each). A
// sequence that fits one chunk gives none: it is timed whole.
func ChunkRanges(total, per int) []UnitRange {
	per = max(per, 1)
	if total*per <= ChunkLaunches {
		return nil
	}
	step := max(ChunkLaunches/per, 1)
	var rs []UnitRange
	for from := 0; from < total; from += step {
		rs = append(rs, UnitRange{from, min(step, total-from)})
	}
	return rs
}
