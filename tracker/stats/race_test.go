//go:build race

package stats

// raceEnabled: the race detector makes sync.Pool drop a share of what is
// put back, so allocation counts of pooled code mean nothing under -race.
const raceEnabled = true
