package main

import (
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/memlimit"
)

// limitHeap sets the soft memory limit for a command that reads files
// (memlimit), unless GOMEMLIMIT chose one; Restore puts the previous limit
// back.
func limitHeap(e *cli.Env, files []string) *memlimit.Limiter {
	l := memlimit.New(e.Getenv)
	l.Set(memlimit.FileBytes(files))
	return l
}
