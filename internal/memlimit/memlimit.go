// Package memlimit owns perfgate's soft memory limit
// (runtime/debug.SetMemoryLimit): how large it is for a command that holds
// a given size of results, and setting it. compare, check and record set it
// from the size of the results they read, so that their peak resident set
// stays near 3× that size (docs/speed.md, issue 12). It imports only the
// standard library.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
)

// perInputByte is the peak resident set the limit aims at, per byte of
// results a command reads.
const perInputByte = 3

// processRSS is the part of perfgate's resident set that is not Go's
// memory, which the limit does not count: the pages of its binary and of
// libc that it touches (15.6 MB of file-backed RSS in a compare of two tiny
// files, 17.8 MB in all).
const processRSS = 15 << 20

// PostgresRSS is what a command's own pages grow by when it opens the
// Postgres store: pgx's code and the runtime's tables for it (3.0 MB of the
// binary's pages) and its connection (0.7 MB anonymous), measured for
// docs/speed.md ("Postgres's own pages").
const PostgresRSS = 3 << 20

// For returns the soft memory limit for a command that reads inputBytes of
// results files: 3× the input less the process's own pages. It is 0 (no
// limit) where that is under twice the input, that is for inputs under
// about 15 MiB, whose peak the process's pages alone put past 3×: loaded
// results take about 1.5× their size, and a limit near that keeps the
// collector running for a few MB (a record of 8 MB under a 20 MB limit
// took 2-3× the CPU time). The limit only makes the collector run sooner
// as the heap nears it; a larger live heap still gets its memory.
func For(inputBytes int64) int64 { return forProcess(inputBytes, processRSS) }

// forProcess is For for a process whose own pages are process bytes.
func forProcess(inputBytes, process int64) int64 {
	limit := perInputByte*inputBytes - process
	if limit < 2*inputBytes {
		return 0
	}
	return limit
}

// minStream is the least limit ForStream gives: about what recording 10k
// benchmarks into the embedded store holds (their heads, spans and series
// figures, and one benchmark read) plus the collector's headroom. Under it
// the collector runs every few benchmarks: 9 MiB took 2-3× the CPU time of
// 10 MiB at 10k × 100 for no lower peak.
const minStream = 10 << 20

// ForStream returns the soft memory limit for a command that reads
// inputBytes of results a benchmark at a time (record into the embedded
// store): 3× the input less the process's own pages, as For, but at least
// minStream, and also for small inputs, since what such a command holds is
// a small part of its input.
func ForStream(inputBytes int64) int64 {
	return max(perInputByte*inputBytes-processRSS, minStream)
}

// A Limiter sets one command's soft memory limit, and puts the previous
// limit back when the command is done (tests run commands in one process).
type Limiter struct {
	getenv func(string) string
	extra  int64 // own pages beyond processRSS (AddProcess)
	old    int64
	set    bool
}

// New returns a Limiter that reads GOMEMLIMIT through getenv.
func New(getenv func(string) string) *Limiter { return &Limiter{getenv: getenv} }

// AddProcess tells l that the command's own pages are larger than
// processRSS by bytes (PostgresRSS, for a command on the Postgres store),
// so that Set leaves that much less to the heap.
func (l *Limiter) AddProcess(bytes int64) { l.extra += bytes }

// Set sets the limit For gives for inputBytes (less what AddProcess
// added), unless the GOMEMLIMIT environment variable chose one. A later
// Set (a command that learns how much it reads as it goes) replaces it.
func (l *Limiter) Set(inputBytes int64) { l.set1(forProcess(inputBytes, processRSS+l.extra)) }

// SetStream is Set for a command that streams its input (ForStream).
func (l *Limiter) SetStream(inputBytes int64) { l.set1(ForStream(inputBytes)) }

func (l *Limiter) set1(limit int64) {
	if l.getenv("GOMEMLIMIT") != "" || (limit == 0 && !l.set) {
		return
	}
	if limit == 0 {
		limit = math.MaxInt64 // no limit: the runtime's default
	}
	old := debug.SetMemoryLimit(limit)
	if !l.set {
		l.old, l.set = old, true
	}
}

// Restore puts back the limit from before the first Set.
func (l *Limiter) Restore() {
	if l.set {
		debug.SetMemoryLimit(l.old)
		l.set = false
	}
}

// FileBytes returns the total size of files, leaving out those it cannot
// stat (their loading reports why).
func FileBytes(files []string) int64 {
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}
