package report

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// num is a float64 that encodes NaN and ±Inf as JSON null.
type num float64

// percent turns a fraction into the percentage users write (0.1 → 10),
// without float noise (0.1*100 is 10.000000000000002).
func percent(f float64) num {
	return num(math.Round(f*100*1e9) / 1e9)
}

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// jsonDoc is the shape of perfgate compare --format json. The first fields
// and the benchmark and summary fields are the documented contract; the
// rest is additional context.
type jsonDoc struct {
	Threshold    num                  `json:"threshold_pct"` // percent, as --threshold and .perfgate.yml write it
	Alpha        num                  `json:"alpha"`
	Correction   string               `json:"correction"`
	MinSamples   int                  `json:"min_samples"`
	CILevel      num                  `json:"ci_level"`
	Interleaved  bool                 `json:"interleaved,omitempty"`
	Verdict      string               `json:"verdict_line"`
	Failed       bool                 `json:"failed"`
	Candidate    *model.RunRef        `json:"candidate,omitempty"`
	BaselineRuns []model.RunRef       `json:"baseline_runs,omitempty"`
	HistoryRuns  []model.RunRef       `json:"history_runs,omitempty"`
	Incomparable []model.Incomparable `json:"incomparable,omitempty"`
	BaselineEnv  map[string]string    `json:"baseline_env,omitempty"`
	CandidateEnv map[string]string    `json:"candidate_env,omitempty"`
	Benchmarks   []jsonBenchmark      `json:"benchmarks"`
	Summary      jsonSummary          `json:"summary"`
}

type jsonBenchmark struct {
	Suite           string            `json:"suite"`
	Name            string            `json:"name"`
	Params          map[string]string `json:"params,omitempty"`
	Unit            string            `json:"unit"`
	Better          model.Better      `json:"better"`
	NBaseline       int               `json:"n_baseline"`
	NCandidate      int               `json:"n_candidate"`
	BaselineMedian  num               `json:"baseline_median"`
	CandidateMedian num               `json:"candidate_median"`
	Change          num               `json:"change"`
	CILow           num               `json:"ci_low"`
	CIHigh          num               `json:"ci_high"`
	PValue          num               `json:"p_value"`
	PAdjusted       num               `json:"p_adjusted"`
	PBetter         num               `json:"p_value_better"`
	PBetterAdjusted num               `json:"p_adjusted_better"`
	Threshold       num               `json:"threshold_pct"`
	Verdict         compare.Verdict   `json:"verdict"`
	Reason          string            `json:"reason,omitempty"`
	SummaryOnly     bool              `json:"summary_only,omitempty"`
	BelowThreshold  bool              `json:"below_threshold,omitempty"`
	Rounds          int               `json:"rounds,omitempty"`
	BaselineJobs    int               `json:"baseline_jobs,omitempty"`
	HistoryJobs     int               `json:"history_jobs,omitempty"`
	RunSpread       num               `json:"run_spread"`
	SpreadKnown     bool              `json:"run_spread_measured,omitempty"`
	Detectable      num               `json:"detectable_change"`
	PRun            num               `json:"p_value_runs"`
}

type jsonSummary struct {
	Regressions  int `json:"regressions"`
	Improvements int `json:"improvements"`
	Warnings     int `json:"warnings"`
	Insufficient int `json:"insufficient"`
	Unchanged    int `json:"unchanged"`
	Errors       int `json:"errors"`
	Incomparable int `json:"incomparable"`
	Noisy        int `json:"noisy"`
	NotYet       int `json:"not_yet_gateable"`
	// BelowThreshold counts unchanged benchmarks with a significant change
	// smaller than the threshold.
	BelowThreshold int `json:"below_threshold"`
	GeomeanChange  num `json:"geomean_change"`
}

// JSON writes the comparison in the shape of perfgate compare --format
// json: threshold_pct in percent, as --threshold and .perfgate.yml write
// it (10 is 10%), changes as fractions, p_value the one-sided p in the
// worse direction, figures that were not computed as null.
func JSON(w io.Writer, c *compare.Comparison) error {
	o := c.Options
	doc := jsonDoc{
		Threshold: percent(o.Threshold), Alpha: num(o.Alpha), Correction: o.Correction,
		MinSamples: o.MinSamples, CILevel: num(o.CILevel()), Interleaved: o.Interleaved,
		Verdict: VerdictLine(c), Failed: c.Failed(),
		BaselineRuns: c.Baseline, HistoryRuns: c.History, Incomparable: c.Incomparable,
		BaselineEnv: c.BaselineEnv, CandidateEnv: c.CandidateEnv,
		Benchmarks: make([]jsonBenchmark, len(c.Results)),
		Summary: jsonSummary{
			Regressions: c.Summary.Regressions, Improvements: c.Summary.Improvements,
			Warnings: c.Summary.Warnings, Insufficient: c.Summary.Insufficient,
			Unchanged: c.Summary.Unchanged, Errors: c.Summary.Errors,
			Incomparable: c.Summary.Incomparable, Noisy: c.Summary.Noisy, NotYet: c.Summary.NotYet, BelowThreshold: c.Summary.BelowThreshold,
			GeomeanChange: num(c.Summary.GeomeanChange),
		},
	}
	if c.Candidate.ID != "" {
		ref := c.Candidate
		doc.Candidate = &ref
	}
	for i, r := range c.Results {
		doc.Benchmarks[i] = jsonBenchmark{
			Suite: r.Suite, Name: r.Name, Params: r.Params, Unit: r.Unit, Better: r.Better,
			NBaseline: r.NBaseline, NCandidate: r.NCandidate,
			BaselineMedian: num(r.BaselineMedian), CandidateMedian: num(r.CandidateMedian),
			Change: num(r.Change), CILow: num(r.CILow), CIHigh: num(r.CIHigh),
			PValue: num(r.PValue), PAdjusted: num(r.PAdjusted),
			PBetter: num(r.PBetter), PBetterAdjusted: num(r.PBetterAdjusted), Threshold: percent(r.Threshold),
			Verdict: r.Verdict, Reason: r.Reason, SummaryOnly: r.SummaryOnly, BelowThreshold: r.BelowThreshold,
			Rounds: r.Rounds, BaselineJobs: r.BaselineJobs, HistoryJobs: r.HistoryJobs,
			RunSpread: num(r.RunSpread), SpreadKnown: r.SpreadKnown, Detectable: num(r.Detectable), PRun: num(r.PRun),
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
