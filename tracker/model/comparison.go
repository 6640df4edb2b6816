package model

// A ComparisonRecord is a comparison as a history store keeps it: which
// candidate run was judged against which baseline runs, under which
// options, and the verdict of every benchmark. Stores name runs by ID, so
// the record outlives the pruning of the runs it names.
type ComparisonRecord struct {
	Candidate  RunRef
	Baseline   []RunRef
	Threshold  float64 // fraction: 0.10 = 10%
	Alpha      float64
	Correction string
	Failed     bool           // at least one regression
	Summary    map[string]any // the comparison's summary counts, as reported
	Results    []VerdictRecord
}

// A VerdictRecord is one benchmark's verdict within a ComparisonRecord.
// Figures that were not computed are NaN.
type VerdictRecord struct {
	Suite, Name, Unit string
	Better            Better
	Verdict           string
	NBaseline         int
	NCandidate        int
	BaselineMedian    float64
	CandidateMedian   float64
	Change            float64 // positive means worse
	CILow, CIHigh     float64
	PValue, PAdjusted float64
	Threshold         float64
	Reason            string
}
