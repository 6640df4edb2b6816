package cmdpath

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// The commands of the cmdpath suite, one per size class of the command-path
// suite it mirrors: a small "synchronize", a medium "launch with 128 B of
// parameters", and a large "1 MB transfer" that carries a shared reference
// to its buffer (zero-copy), not the bytes.
type (
	syncCmd struct {
		op, stream uint32
	}
	launchCmd struct {
		op   uint32
		grid [3]uint32
		//lint:ignore U1000 the fields give the command its size: the suite times moving commands of these sizes
		block  [3]uint32
		params [128]byte
	}
	transferCmd struct {
		op uint32
		//lint:ignore U1000 the fields give the command its size: the suite times moving commands of these sizes
		dst uint64
		buf sharedBuf
	}
)

// A sharedBuf is a reference-counted byte buffer: cloning it shares the bytes
// (one atomic increment), as Rust's bytes::Bytes does.
type sharedBuf struct{ r *bufRef }

type bufRef struct {
	data []byte
	refs atomic.Int64
}

func newSharedBuf(n int) sharedBuf {
	r := &bufRef{data: make([]byte, n)}
	r.refs.Store(1)
	return sharedBuf{r}
}

// clone returns another reference to the same bytes.
func (b sharedBuf) clone() sharedBuf { b.r.refs.Add(1); return b }

// release drops one reference; the last one lets the bytes go.
func (b sharedBuf) release() {
	if b.r.refs.Add(-1) == 0 {
		b.r.data = nil
	}
}

// A ringQueue is a bounded FIFO guarded by a sync.Mutex: the queue a C++
// runtime would write before reaching for a lock-free one. Waiting is by
// polling (yield and retry), since a mutex alone cannot block on full/empty.
type ringQueue[T any] struct {
	mu      sync.Mutex
	buf     []T
	head, n int
}

func newRingQueue[T any](capacity int) *ringQueue[T] {
	return &ringQueue[T]{buf: make([]T, capacity)}
}

// tryPush appends v unless the queue is full.
func (q *ringQueue[T]) tryPush(v T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == len(q.buf) {
		return false
	}
	q.buf[(q.head+q.n)%len(q.buf)] = v
	q.n++
	return true
}

// tryPop removes the oldest element unless the queue is empty.
func (q *ringQueue[T]) tryPop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if q.n == 0 {
		return zero, false
	}
	v := q.buf[q.head]
	q.buf[q.head] = zero // drop the reference the slot held
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return v, true
}

// push appends v, polling while the queue is full.
func (q *ringQueue[T]) push(v T) {
	for !q.tryPush(v) {
		runtime.Gosched()
	}
}

// pop removes the oldest element, polling while the queue is empty.
func (q *ringQueue[T]) pop() T {
	for {
		if v, ok := q.tryPop(); ok {
			return v
		}
		runtime.Gosched()
	}
}

// A bufPool hands out byte buffers from free lists of power-of-two size
// classes (1 KiB … 1 MiB), as a device-memory pool does for its blocks.
type bufPool struct {
	mu   sync.Mutex
	free [poolClasses][][]byte
}

const (
	poolMinShift = 10 // 1 KiB
	poolClasses  = 11 // up to 1 MiB
)

// poolClass returns the size class of n bytes (-1 when n is over 1 MiB).
func poolClass(n int) int {
	if n <= 1<<poolMinShift {
		return 0
	}
	c := bits.Len(uint(n-1)) - poolMinShift
	if c >= poolClasses {
		return -1
	}
	return c
}

// get returns a buffer of n bytes, reusing a free one of its class.
func (p *bufPool) get(n int) []byte {
	c := poolClass(n)
	if c < 0 {
		return make([]byte, n)
	}
	p.mu.Lock()
	if l := p.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		p.free[c] = l[:len(l)-1]
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	return make([]byte, n, 1<<(c+poolMinShift))
}

// put returns b to its class's free list.
func (p *bufPool) put(b []byte) {
	c := poolClass(cap(b))
	if c < 0 || cap(b) != 1<<(c+poolMinShift) {
		return
	}
	p.mu.Lock()
	p.free[c] = append(p.free[c], b[:cap(b)])
	p.mu.Unlock()
}
