package torchref

import (
	"maps"

	"github.com/perfgate/perfgate/tracker/model"
)

// InfoPrefix begins the info key that names, on a built-in benchmark, the
// arm of one speedup metric: info.reference_torch is the "suite/name" of
// the benchmark speedup_vs_torch divides by (info.reference stays the
// in-suite reference's, as cuBLAS for the tiled GEMM).
const InfoPrefix = "reference_"

// Merge returns bs followed by arms (the Python harness's benchmarks) and
// sets, on each benchmark of bs whose references were measured without
// error, speedup_vs_<metric>: the arm's median over its own, mode by mode
// (above 1: perfgate is faster), and info.reference_<metric>. An arm
// without GB/s or TFLOP/s gets them from the first built-in benchmark it
// is the reference of, through the bytes and FLOPs kernels counted for it
// (its GB/s times its median), so one place counts them.
func Merge(bs, arms []model.Benchmark) ([]model.Benchmark, error) {
	byName := map[string]int{}
	for i, a := range arms {
		byName[a.Suite+"/"+a.Name] = i
	}
	out, arms := cloned(bs), cloned(arms)
	for i := range out {
		b := &out[i]
		refs, mode, err := For(b.Suite, b.Name)
		if err != nil {
			return nil, err
		}
		own := median(*b)
		for _, r := range refs {
			j, ok := byName[r.Suite+"/"+r.Name(mode)]
			if !ok {
				continue
			}
			a := &arms[j]
			theirs := median(*a)
			if own <= 0 || theirs <= 0 {
				continue
			}
			if b.Info == nil {
				b.Info = map[string]string{}
			}
			b.Metrics["speedup_vs_"+r.Arm.Metric] = theirs / own
			b.Info[InfoPrefix+r.Arm.Metric] = a.Suite + "/" + a.Name
			for _, k := range []string{"gbps", "tflops"} {
				if v, ok := b.Metrics[k]; ok && v > 0 {
					if _, has := a.Metrics[k]; !has {
						a.Metrics[k] = v * own / theirs
					}
				}
			}
		}
	}
	return append(out, arms...), nil
}

// median is a measured benchmark's median µs (0: an error, skipped, or
// not a time).
func median(b model.Benchmark) float64 {
	if b.Error != "" || b.Unit != "us" || len(b.Samples) == 0 {
		return 0
	}
	return b.Metrics["median_us"]
}

// cloned copies bs with their metrics and info, which Merge writes.
func cloned(bs []model.Benchmark) []model.Benchmark {
	out := make([]model.Benchmark, len(bs))
	for i, b := range bs {
		b.Metrics, b.Info = maps.Clone(b.Metrics), maps.Clone(b.Info)
		out[i] = b
	}
	return out
}
