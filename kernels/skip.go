package kernels

import (
	"github.com/perfgate/perfgate/tracker/model"
)

// SkipUnchanged returns the benchmark suite/name as skipped when its
// kernels' PTX hash (after compiling them here) is the one unchanged maps
// it to: the baseline measured the same code on this GPU architecture.
// A benchmark with no hash (host code, cuBLAS) is always measured.
func SkipUnchanged(suite, name string, params map[string]string, hash string, unchanged map[string]string) (model.Benchmark, bool) {
	if hash == "" || unchanged[suite+"/"+name] != hash {
		return model.Benchmark{}, false
	}
	why := "kernel unchanged since the baseline (PTX sha256 " + short(hash) + ")"
	return model.Benchmark{Suite: suite, Name: name, Params: params, Unit: "us", Better: model.Lower, Samples: []float64{},
		Error: "skipped: " + why, Info: map[string]string{model.InfoSkipped: why, "ptx_sha256": hash}}, true
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}
