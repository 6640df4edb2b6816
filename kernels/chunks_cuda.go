//go:build cuda

package kernels

import (
	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/measure"
)

// chunked splits a launch sequence of total units of per launches each into
// the chunks of measure.ChunkRanges, on g's stream: issue(s, from, count)
// enqueues the units [from, from+count) once.
func (g *gpu) chunked(total, per int, issue func(s cu.Stream, from, count int) error) []device.Work {
	var ws []device.Work
	for _, r := range measure.ChunkRanges(total, per) {
		ws = append(ws, g.on(func(s cu.Stream, n int) error {
			for range n {
				if err := issue(s, r.From, r.Count); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return ws
}
