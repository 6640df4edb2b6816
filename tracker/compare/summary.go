package compare

// Summarize counts the verdicts of rs and their geometric-mean change, as
// Compare does for its Summary. Callers that re-judge some benchmarks of a
// comparison (tracker/confirm) recount with it.
func Summarize(rs []Result) Summary { return summarize(rs) }
