package cmdpath

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfgate/perfgate/kernels/suite"
)

// A Bench is one mode=host benchmark of the cmdpath suite. start sets it
// up (consumer goroutines, buffers) and returns run, which performs n ops and
// returns the time they took, and stop, which tears down what start made.
// Samples are µs per op.
type Bench struct {
	Op    string  // what one op is, for info.op
	Cmds  float64 // commands per op, for commands_per_s (0: not a command benchmark)
	Bytes float64 // bytes moved per op, for gbps (0: none)
	Start func() (run func(n int) time.Duration, stop func())
	// Failed, when set, returns the first error of run (GPU benchmarks).
	Failed func() error
}

// sinks keep results alive so the compiler cannot drop the work.
var (
	//lint:ignore U1000 written, never read: a sink keeps the allocation the scenario times
	sinkBytes []byte
	sinkU64   atomic.Uint64
)

// BenchFor returns the host benchmark of case c.
func hostBenchFor(c suite.Case) (Bench, error) {
	atoi := func(k string) int { n, _ := strconv.Atoi(c.Param(k)); return n }
	mutex := c.Param("queue") == "mutex"
	switch c.Op {
	case "send":
		return sendBench(c.Param("cmd"), atoi("cap"), mutex), nil
	case "push_pop":
		return pushPopBench(c.Param("cmd"), mutex), nil
	case "roundtrip":
		return roundTripBench(c.Param("via") == "polling"), nil
	case "throughput":
		return throughputBench(atoi("batch"), mutex), nil
	case "backpressure":
		return backpressureBench(atoi("cap"), atoi("commands"), 10*time.Microsecond, mutex), nil
	case "clone":
		return cloneBench(ParseSize(c.Param("bytes")), c.Param("copy") == "zero"), nil
	case "pool":
		return poolBench(c.Param("op"), ParseSize(c.Param("bytes")), c.Param("impl") == "pool"), nil
	case "sequential":
		return sequentialBench(atoi("commands"), c.Param("via") == "direct"), nil
	case "contention":
		return contentionBench(atoi("producers"), atoi("commands"), atoi("cap"), mutex), nil
	}
	return Bench{}, fmt.Errorf("cmdpath: no host benchmark %q", c.Op)
}

// parseSize reads a suite.SizeLabel ("1K", "64K", "1M"); 0 when it is not one.
func ParseSize(s string) int {
	mult := 1
	switch {
	case len(s) > 1 && s[len(s)-1] == 'K':
		mult, s = kb, s[:len(s)-1]
	case len(s) > 1 && s[len(s)-1] == 'M':
		mult, s = mb, s[:len(s)-1]
	}
	n, _ := strconv.Atoi(s)
	return n * mult
}

// A queue is the bounded FIFO a producer sends commands through: a buffered
// channel or a mutex-guarded ring, both polled or blocking as they naturally are.
type queue[T any] interface {
	send(T)
	recv() (T, bool) // false once closed and drained
	close()
}

type chanQueue[T any] chan T

func (q chanQueue[T]) send(v T)        { q <- v }
func (q chanQueue[T]) recv() (T, bool) { v, ok := <-q; return v, ok }
func (q chanQueue[T]) close()          { close(q) }
func (q *mutexQueue[T]) send(v T)      { q.ring.push(v) }
func (q *mutexQueue[T]) close()        { q.closed.Store(true) }
func newQueue[T any](capacity int, mutex bool) queue[T] {
	if mutex {
		return &mutexQueue[T]{ring: newRingQueue[T](capacity)}
	}
	return make(chanQueue[T], capacity)
}

var (
	_ queue[syncCmd] = chanQueue[syncCmd](nil)
	_ queue[syncCmd] = (*mutexQueue[syncCmd])(nil)
)

// A mutexQueue is a ringQueue with a closed flag; recv polls.
type mutexQueue[T any] struct {
	ring   *ringQueue[T]
	closed atomic.Bool
}

func (q *mutexQueue[T]) recv() (T, bool) {
	for {
		if v, ok := q.ring.tryPop(); ok {
			return v, true
		}
		if q.closed.Load() { // closed is set after the last push: one more look drains it
			return q.ring.tryPop()
		}
		runtime.Gosched()
	}
}

// consume starts a consumer that takes every command of q, hands it to
// handle and counts it; wait returns once q is closed and drained.
func consume[T any](q queue[T], handle func(T), done *atomic.Int64) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			v, ok := q.recv()
			if !ok {
				return
			}
			handle(v)
			done.Add(1)
		}
	}()
	return wg.Wait
}

// A cmdKind makes and retires the commands of one size class.
type cmdKind[T any] struct {
	make   func() T
	retire func(T) // what the consumer does with a command it took
}

var (
	smallCmd  = cmdKind[syncCmd]{func() syncCmd { return syncCmd{op: 1} }, func(c syncCmd) {}}
	mediumCmd = cmdKind[launchCmd]{func() launchCmd { return launchCmd{op: 2, grid: [3]uint32{1, 1, 1}} }, func(launchCmd) {}}
)

// largeCmd carries a shared reference to one 1 MiB buffer: each command
// clones it and the consumer releases it.
func largeCmd() cmdKind[transferCmd] {
	buf := newSharedBuf(mb)
	return cmdKind[transferCmd]{func() transferCmd { return transferCmd{op: 3, buf: buf.clone()} },
		func(c transferCmd) { c.buf.release() }}
}

// timeLoop runs body n times and returns how long it took.
func timeLoop(n int, body func()) time.Duration {
	t0 := time.Now()
	for i := 0; i < n; i++ {
		body()
	}
	return time.Since(t0)
}

// waitFor polls until done reaches want.
func waitFor(done *atomic.Int64, want int64) {
	for done.Load() < want {
		runtime.Gosched()
	}
}

func sendBench(size string, capacity int, mutex bool) Bench {
	b := Bench{Op: "one send of a " + size + " command to a draining consumer", Cmds: 1}
	switch size {
	case "small":
		b.Start = func() (func(int) time.Duration, func()) { return sendLoop(smallCmd, capacity, mutex) }
	case "medium":
		b.Start = func() (func(int) time.Duration, func()) { return sendLoop(mediumCmd, capacity, mutex) }
	default:
		b.Start = func() (func(int) time.Duration, func()) { return sendLoop(largeCmd(), capacity, mutex) }
	}
	return b
}

func sendLoop[T any](k cmdKind[T], capacity int, mutex bool) (func(int) time.Duration, func()) {
	q := newQueue[T](capacity, mutex)
	var done atomic.Int64
	wait := consume(q, k.retire, &done)
	run := func(n int) time.Duration { return timeLoop(n, func() { q.send(k.make()) }) }
	return run, func() { q.close(); wait() }
}

func pushPopBench(size string, mutex bool) Bench {
	b := Bench{Op: "one push and one pop of a " + size + " command, one goroutine (uncontended)"}
	switch size {
	case "small":
		b.Start = func() (func(int) time.Duration, func()) { return pushPopLoop(smallCmd, mutex), func() {} }
	case "medium":
		b.Start = func() (func(int) time.Duration, func()) { return pushPopLoop(mediumCmd, mutex), func() {} }
	default:
		b.Start = func() (func(int) time.Duration, func()) { return pushPopLoop(largeCmd(), mutex), func() {} }
	}
	return b
}

func pushPopLoop[T any](k cmdKind[T], mutex bool) func(int) time.Duration {
	q := newQueue[T](100, mutex)
	return func(n int) time.Duration {
		return timeLoop(n, func() { q.send(k.make()); v, _ := q.recv(); k.retire(v) })
	}
}

// A request carries a command and where to answer it.
type request struct {
	cmd   syncCmd
	reply chan uint32
}

const opStop = 0xff

// roundTripBench sends one command and waits for its answer: through a
// request channel and a reply channel, or through a mutex ring and a
// one-slot mutex ring that the client polls.
func roundTripBench(polling bool) Bench {
	b := Bench{Op: "send one command and wait for its reply", Cmds: 1}
	if !polling {
		b.Start = func() (func(int) time.Duration, func()) {
			reqs := make(chan request, 100)
			go func() {
				for r := range reqs {
					r.reply <- r.cmd.op
				}
			}()
			reply := make(chan uint32, 1)
			run := func(n int) time.Duration {
				return timeLoop(n, func() { reqs <- request{smallCmd.make(), reply}; sinkU64.Add(uint64(<-reply)) })
			}
			return run, func() { close(reqs) }
		}
		return b
	}
	b.Start = func() (func(int) time.Duration, func()) {
		reqs, resp := newRingQueue[syncCmd](100), newRingQueue[uint32](1)
		go func() {
			for c := reqs.pop(); c.op != opStop; c = reqs.pop() {
				resp.push(c.op)
			}
		}()
		run := func(n int) time.Duration {
			return timeLoop(n, func() { reqs.push(smallCmd.make()); sinkU64.Add(uint64(resp.pop())) })
		}
		return run, func() { reqs.push(syncCmd{op: opStop}) }
	}
	return b
}

// throughputBench sends batches of small commands and waits after each batch
// until the consumer has taken them all.
func throughputBench(batch int, mutex bool) Bench {
	return Bench{Op: fmt.Sprintf("one command of a batch of %d, until the consumer has it", batch), Cmds: 1,
		Start: func() (func(int) time.Duration, func()) {
			q := newQueue[syncCmd](1000, mutex)
			var done atomic.Int64
			wait := consume(q, smallCmd.retire, &done)
			var sent int64
			run := func(n int) time.Duration {
				batches := max(1, n/batch)
				d := timeLoop(batches, func() {
					for i := 0; i < batch; i++ {
						q.send(smallCmd.make())
					}
					sent += int64(batch)
					waitFor(&done, sent)
				})
				return d * time.Duration(n) / time.Duration(batches*batch)
			}
			return run, func() { q.close(); wait() }
		}}
}
