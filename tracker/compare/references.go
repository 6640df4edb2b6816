package compare

import (
	"cmp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Reference is an in-run comparison of the candidate: a benchmark that
// names another benchmark of the same run as its reference (a kernel and
// cuBLAS, a fused kernel and the unfused sequence) and the speedup over it.
type Reference struct {
	Suite, Name string // the benchmark
	Reference   string // the reference benchmark's "suite/name"
	Metric      string // speedup_vs_<op>
	// Speedup is the reference's median time over the benchmark's (> 1:
	// faster than the reference), the median over the candidate runs.
	Speedup  float64
	Category string // SpeedupCategory(Speedup)
}

// SpeedupCategory names a speedup over a reference: ≥ 0.8 excellent,
// 0.5–0.8 good, 0.2–0.5 fair, below 0.2 needs work.
func SpeedupCategory(s float64) string {
	switch {
	case s >= 0.8:
		return "excellent"
	case s >= 0.5:
		return "good"
	case s >= 0.2:
		return "fair"
	}
	return "needs work"
}

// references collects the candidate's in-run references: every
// speedup_vs_<ref> metric of a benchmark that names its reference, in
// info.reference_<ref> (one per metric: PyTorch's arms of run --reference
// torch) or else info.reference (the suite's own), sorted by suite, name
// and metric.
func references(candidate []*model.Results) []Reference {
	type acc struct {
		r   Reference
		all []float64
	}
	byKey := map[string]*acc{}
	var order []*acc
	for _, run := range candidate {
		for _, b := range run.Benchmarks {
			if b.Error != "" {
				continue
			}
			for m, v := range b.Metrics {
				suffix, ok := strings.CutPrefix(m, "speedup_vs_")
				ref := cmp.Or(b.Info["reference_"+suffix], b.Info["reference"])
				if !ok || v <= 0 || ref == "" {
					continue
				}
				k := b.Suite + "/" + b.Name + "\x00" + m
				a := byKey[k]
				if a == nil {
					a = &acc{r: Reference{Suite: b.Suite, Name: b.Name, Reference: ref, Metric: m}}
					byKey[k] = a
					order = append(order, a)
				}
				a.all = append(a.all, v)
			}
		}
	}
	out := make([]Reference, len(order))
	for i, a := range order {
		slices.Sort(a.all)
		n := len(a.all)
		a.r.Speedup = (a.all[(n-1)/2] + a.all[n/2]) / 2
		a.r.Category = SpeedupCategory(a.r.Speedup)
		out[i] = a.r
	}
	slices.SortFunc(out, func(a, b Reference) int {
		return cmp.Or(strings.Compare(a.Suite, b.Suite), strings.Compare(a.Name, b.Name), strings.Compare(a.Metric, b.Metric))
	})
	return out
}
