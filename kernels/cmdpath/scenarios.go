package cmdpath

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// spin busy-waits for d: the consumer's simulated work per command. (A
// sleep of 10 µs lasts far longer on Linux, timer slack included.)
func spin(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// backpressureBench pushes commands through a bounded queue to a consumer
// that spends per on each: the producer blocks once the queue is full, and
// the whole run can take no less than commands × per.
func backpressureBench(capacity, commands int, per time.Duration, mutex bool) Bench {
	return Bench{Op: fmt.Sprintf("%d commands through a queue of %d to a consumer spending %v on each, until all are done",
		commands, capacity, per), Cmds: float64(commands),
		Start: func() (func(int) time.Duration, func()) {
			q := newQueue[syncCmd](capacity, mutex)
			var done atomic.Int64
			wait := consume(q, func(syncCmd) { spin(per) }, &done)
			var sent int64
			run := func(n int) time.Duration {
				return timeLoop(n, func() {
					for i := 0; i < commands; i++ {
						q.send(smallCmd.make())
					}
					sent += int64(commands)
					waitFor(&done, sent)
				})
			}
			return run, func() { q.close(); wait() }
		}}
}

// cloneBench shares a buffer (one atomic increment and decrement) or copies it.
func cloneBench(n int, zero bool) Bench {
	if zero {
		return Bench{Op: "clone and release a shared reference to the buffer",
			Start: func() (func(int) time.Duration, func()) {
				buf := newSharedBuf(n)
				return func(k int) time.Duration { return timeLoop(k, func() { buf.clone().release() }) }, func() {}
			}}
	}
	return Bench{Op: "copy the buffer into a new one (bytes.Clone)",
		Start: func() (func(int) time.Duration, func()) {
			src := bytes.Repeat([]byte{1}, n)
			return func(k int) time.Duration { return timeLoop(k, func() { sinkBytes = bytes.Clone(src) }) }, func() { sinkBytes = nil }
		}}
}

// poolBench times a size-class pool against the Go allocator (make, which
// also zeroes), and reads, writes and a mixed cycle on pooled buffers.
func poolBench(op string, n int, pooled bool) Bench {
	b := Bench{}
	p := &bufPool{}
	var body func()
	switch {
	case op == "alloc_free" && pooled:
		b.Op = "get and put one buffer of the pool"
		body = func() { p.put(p.get(n)) }
	case op == "alloc_free":
		b.Op = "make one buffer (the garbage collector frees it)"
		body = func() { sinkBytes = make([]byte, n) }
	case op == "write":
		b.Op = "copy 1 KiB into a pooled buffer"
		buf, src := p.get(n), bytes.Repeat([]byte{7}, n)
		body = func() { copy(buf, src) }
	case op == "read":
		b.Op = "copy 1 KiB out of a pooled buffer"
		buf, dst := p.get(n), make([]byte, n)
		body = func() { copy(dst, buf); sinkU64.Add(uint64(dst[0])) }
	default:
		b.Op = "get 1 KiB, 64 KiB and 1 MiB, write 1 KiB to each, put them back"
		src := bytes.Repeat([]byte{7}, kb)
		body = func() {
			a, c, d := p.get(kb), p.get(64*kb), p.get(mb)
			copy(a, src)
			copy(c, src)
			copy(d, src)
			p.put(a)
			p.put(c)
			p.put(d)
		}
	}
	b.Start = func() (func(int) time.Duration, func()) {
		return func(k int) time.Duration { return timeLoop(k, body) }, func() { sinkBytes = nil }
	}
	return b
}

// handleCmd is the direct-call processing of a command: what a consumer
// would do without a queue in between.
//
//go:noinline
func handleCmd(c *syncCmd) uint32 { return c.op + c.stream }

// sequentialBench processes commands one after another: by direct calls, or
// each sent through a channel and answered before the next is sent.
func sequentialBench(commands int, direct bool) Bench {
	b := Bench{Op: fmt.Sprintf("%d commands, each finished before the next", commands), Cmds: float64(commands)}
	if direct {
		b.Start = func() (func(int) time.Duration, func()) {
			return func(n int) time.Duration {
				return timeLoop(n, func() {
					var s uint32
					for i := 0; i < commands; i++ {
						c := smallCmd.make()
						s += handleCmd(&c)
					}
					sinkU64.Add(uint64(s))
				})
			}, func() {}
		}
		return b
	}
	b.Start = func() (func(int) time.Duration, func()) {
		reqs := make(chan request, 100)
		go func() {
			for r := range reqs {
				r.reply <- handleCmd(&r.cmd)
			}
		}()
		reply := make(chan uint32, 1)
		return func(n int) time.Duration {
			return timeLoop(n, func() {
				for i := 0; i < commands; i++ {
					reqs <- request{smallCmd.make(), reply}
					sinkU64.Add(uint64(<-reply))
				}
			})
		}, func() { close(reqs) }
	}
	return b
}

// contentionBench starts producers goroutines that each send commands
// commands into one bounded queue with one consumer, and waits until the
// consumer has all of them.
func contentionBench(producers, commands, capacity int, mutex bool) Bench {
	return Bench{Op: fmt.Sprintf("%d producers × %d commands into one queue, until the consumer has all", producers, commands),
		Cmds: float64(producers * commands),
		Start: func() (func(int) time.Duration, func()) {
			q := newQueue[syncCmd](capacity, mutex)
			var done atomic.Int64
			wait := consume(q, smallCmd.retire, &done)
			var sent int64
			run := func(n int) time.Duration {
				return timeLoop(n, func() {
					var wg sync.WaitGroup
					for p := 0; p < producers; p++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for i := 0; i < commands; i++ {
								q.send(smallCmd.make())
							}
						}()
					}
					wg.Wait()
					sent += int64(producers * commands)
					waitFor(&done, sent)
				})
			}
			return run, func() { q.close(); wait() }
		}}
}
