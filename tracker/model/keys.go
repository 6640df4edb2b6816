package model

import "slices"

// SortedKeysInto returns m's keys in the order encoding/json writes them
// (strings.Compare), in keys[:0] when they fit.
func SortedKeysInto[V any](keys []string, m map[string]V) []string {
	keys = keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	sortKeys(keys)
	return keys
}

// SortedKeys returns m's keys in order, sorted as SortedKeysInto sorts
// them.
func SortedKeys[V any](m map[string]V) []string { return SortedKeysInto(make([]string, 0, len(m)), m) }

// sortKeys sorts keys that came from a map. A few (a benchmark's params,
// metrics and info) are ranked by comparing each with every other: the
// same comparisons in whatever order the map gave them, so a run of the
// code is the same every time. slices.Sort takes other branches for each
// of the map's random orders, and a fuzzing input whose coverage changes
// from run to run is minimized for as long as -fuzzminimizetime allows
// (a minute): the fuzz targets that encode results stalled so.
func sortKeys(keys []string) {
	if len(keys) > 16 {
		slices.Sort(keys)
		return
	}
	var sorted [16]string
	for _, k := range keys {
		rank := 0
		for _, o := range keys {
			if o < k {
				rank++
			}
		}
		sorted[rank] = k // map keys are distinct: ranks are too
	}
	copy(keys, sorted[:len(keys)])
}
