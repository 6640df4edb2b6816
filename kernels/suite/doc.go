// Package suite is the vocabulary of perfgate's built-in suites, below the
// harness and the suites themselves: what a run asks for (Options, the size
// presets), a benchmark before its mode is chosen (Case) and its name, a
// suite's declaration (Def) and the cases of it that a run selects (Select),
// and how a measurement becomes a results benchmark (ToBenchmark, the
// summary metrics, the speedups over a reference). Package kernels lists the
// suites, in one place; cmdpath and sharing declare theirs as a Def.
//
// It imports kernels/measure, tracker/model and the standard library only.
package suite
