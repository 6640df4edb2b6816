package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// A NoiseWarning says a candidate run's samples scatter far more than the
// benchmark's baseline runs did: a busy machine, not the code, may explain
// a change (two main runs of go test -bench on a loaded host gave
// "regressions" of +63–75% with the CV going from 2% to 10–21%).
type NoiseWarning struct {
	CandidateCV float64 // the largest coefficient of variation of a candidate run
	BaselineCV  float64 // the median over the baseline runs
	// CPUTime: the benchmark measures wall-clock time of CPU code (go test
	// ns/op), which CPU time (a cpu-ns/op metric) would measure without the
	// other processes' share.
	CPUTime bool
}

func (w *NoiseWarning) Error() string {
	s := fmt.Sprintf("noisy candidate: samples vary %.0f%% (CV) against %.0f%% in the baseline runs", 100*w.CandidateCV, 100*w.BaselineCV)
	if w.CPUTime {
		s += fmt.Sprintf("; on a busy host, measure CPU time (report a cpu-ns/op metric and ingest %s cpu-ns/op)", model.Flag("metric"))
	}
	return s
}

// A candidate run is noisy when its CV is noiseFactor times the baseline
// runs' median CV and at least minNoisyCV.
const (
	noiseFactor = 3
	minNoisyCV  = 0.05
)

// noiseWarning compares the scatter within each run of p's two sides;
// nil when there is nothing to warn about or too little to tell.
func noiseWarning(p *pool) *NoiseWarning {
	var base []float64
	for _, s := range p.base.segments {
		if cv := s.cv(); !math.IsNaN(cv) {
			base = append(base, cv)
		}
	}
	cand := math.NaN()
	for _, s := range p.cand.segments {
		if cv := segmentCV(s.samples); !(cv <= cand) {
			cand = cv
		}
	}
	if len(base) == 0 || math.IsNaN(cand) {
		return nil
	}
	slices.Sort(base)
	b := base[len(base)/2]
	if cand < minNoisyCV || cand < noiseFactor*b {
		return nil
	}
	cpu := strings.HasPrefix(p.key.Name, "Benchmark") && (p.unit == "ns" || p.unit == "ns/op")
	return &NoiseWarning{CandidateCV: cand, BaselineCV: b, CPUTime: cpu}
}

// segmentCV is the coefficient of variation of one run's samples; NaN with
// fewer than three or a mean that is not positive.
func segmentCV(x []float64) float64 {
	if len(x) < 3 {
		return math.NaN()
	}
	var mean, ss float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	if !(mean > 0) {
		return math.NaN()
	}
	return math.Sqrt(ss/float64(len(x)-1)) / mean
}
