// Package ab runs an interleaved A/B on one machine: the merge base of a
// git ref checked out into a temporary worktree (the base side) and the
// working tree (the head side) run their .perfgate.yml suites alternately,
// round after round, in an ABBA or ABAB order, every suite of every side in
// its own perfgate process. perfgate ab and the action's interleaved baseline (baseline: interleaved)
// both use it; the comparison of the two sides is tracker/compare's.
//
// It owns the worktree (always removed by Close), the order of the sides
// and the pooling of a side's rounds. It imports runner (to run the
// rounds), tracker/config, tracker/ingest and tracker/model, and runs git;
// it never imports cmd and prints nothing itself (messages go to the
// runner's Log).
package ab
