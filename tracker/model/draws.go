package model

// Metrics of a benchmark whose samples came from several CUDA contexts of
// one process (kernels/measure/draws.go): a cold launch of a few microseconds or a
// sequence of stream launches sits at a level its context draws, so it is
// measured in several and their samples pooled.
const (
	// MetricDraws is the number of CUDA contexts the samples came from.
	MetricDraws = "draws"
	// MetricDrawSpread is the standard deviation of the contexts' median
	// samples, in percent (log scale): how far apart their levels were.
	MetricDrawSpread = "draw_spread_pct"
)
