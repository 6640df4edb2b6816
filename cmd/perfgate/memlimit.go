package main

import (
	"os"
	"runtime/debug"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/compare"
)

// limitHeap sets the soft memory limit compare.HeapLimit gives for the size
// of files, unless GOMEMLIMIT chose one, and returns the function that puts
// the previous limit back (the tests run commands in one process).
func limitHeap(e *cli.Env, files []string) (restore func()) {
	restore = func() {}
	if e.Getenv("GOMEMLIMIT") != "" {
		return restore
	}
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	if limit := compare.HeapLimit(n); limit > 0 {
		old := debug.SetMemoryLimit(limit)
		restore = func() { debug.SetMemoryLimit(old) }
	}
	return restore
}
