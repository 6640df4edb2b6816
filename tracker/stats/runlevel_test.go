package stats

import (
	"math"
	"testing"
)

func logs(x ...float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Log(v)
	}
	return out
}

func relNear(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// TestRunLevelTestReference pins the run-level test to values computed the
// textbook way with scipy 1.10.1 by testdata/gen_runlevel.py (its output is
// quoted next to each number).
func TestRunLevelTestReference(t *testing.T) {
	t.Run("one round a job", func(t *testing.T) {
		// oneRound: delta=0.072134434691830229 se=0.029787918183085061 df=2.25
		// greater=0.06124249356587614 less=0.93875750643412392 q99=6.0035973390511197
		var hist [][]float64
		for _, v := range []float64{100, 103, 98, 101} {
			hist = append(hist, logs(v))
		}
		cand := logs(108)
		s := EstimateSpread(hist, cand)
		r := RunLevelTest(hist, cand, s, 0.03)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"delta", r.Delta, 0.072134434691830229}, {"se", r.SE, 0.029787918183085061},
			{"df", r.DF, 2.25}, {"greater", r.Greater, 0.06124249356587614},
			{"less", r.Less, 0.93875750643412392}, {"q99", r.Quantile(0.99), 6.0035973390511197},
		} {
			if !relNear(c.got, c.want, 2e-9) { // gonum's t quantile at fractional df: 9e-10
				t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
			}
		}
	})
	t.Run("balanced rounds", func(t *testing.T) {
		// balanced: delta=0.056364386058705307 se=0.016030699843283515 df=2.9090909090909092 greater=0.020485070676951347
		// balanced: within=3.1478326245260041e-05 jobvar=0.00019273750309908763
		hist := [][]float64{logs(100, 101, 99.5), logs(102, 101.5, 102.5), logs(99, 98.5, 99.2),
			logs(100.5, 100, 101), logs(101, 100.2, 100.8)}
		cand := logs(106, 107, 105.5)
		s := EstimateSpread(hist, cand)
		r := RunLevelTest(hist[:3], cand, s, 0.03)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"delta", r.Delta, 0.056364386058705307}, {"se", r.SE, 0.016030699843283515},
			{"df", r.DF, 2.9090909090909092}, {"greater", r.Greater, 0.020485070676951347},
			{"within", s.Within, 3.1478326245260041e-05}, {"jobvar", s.JobVar, 0.00019273750309908763},
		} {
			if !relNear(c.got, c.want, 1e-9) {
				t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
			}
		}
	})
	t.Run("prior", func(t *testing.T) {
		// prior: se=0.042426406871192854 greater=0.018484104626433392
		r := RunLevelTest([][]float64{logs(100)}, logs(112), EstimateSpread([][]float64{logs(100)}, logs(112)), 0.03)
		if !relNear(r.SE, 0.042426406871192854, 1e-12) || !relNear(r.Greater, 0.018484104626433392, 1e-9) || r.DF != PriorDF {
			t.Errorf("se %.17g greater %.17g df %v", r.SE, r.Greater, r.DF)
		}
	})
}

// TestSpreadComponents checks the estimates' bookkeeping on cases small
// enough to follow by hand.
func TestSpreadComponents(t *testing.T) {
	for _, tt := range []struct {
		name          string
		hist          [][]float64
		cand          []float64
		dfB, dfW      float64
		between, jvar float64
	}{
		{"no history", nil, []float64{0}, 0, 0, 0, 0},
		{"one job of rounds", [][]float64{{0, 2}}, []float64{1}, 0, 1, 0, 0},
		{"two lone runs", [][]float64{{0}, {2}}, []float64{1}, 1, 0, 2, 2},
		// Job means 1 and 3 (variance 2); rounds differ by ±1 (within 2):
		// between = 2 − 2·(1/2) = 1.
		{"rounds and jobs", [][]float64{{0, 2}, {2, 4}}, nil, 1, 2, 1, 2},
		// Job means 2 and 2.5 (variance 0.125) vary less than rounds of
		// variance 5 predict (5/2): no job effect.
		{"round noise only", [][]float64{{0, 4}, {1, 4}}, nil, 1, 2, 0, 0.125},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := EstimateSpread(tt.hist, tt.cand)
			if s.DFBetween != tt.dfB || s.DFWithin != tt.dfW || math.Abs(s.Between-tt.between) > 1e-12 || math.Abs(s.JobVar-tt.jvar) > 1e-12 {
				t.Errorf("got %+v, want dfB %v dfW %v between %v jobvar %v", s, tt.dfB, tt.dfW, tt.between, tt.jvar)
			}
		})
	}
}

// TestRunLevelDegenerate: identical runs give a zero standard error; the
// tails then follow the sign of the difference instead of dividing by 0.
func TestRunLevelDegenerate(t *testing.T) {
	h := [][]float64{{1}, {1}, {1}}
	r := RunLevelTest(h, []float64{1.1}, EstimateSpread(h, []float64{1.1}), 0.03)
	if r.SE != 0 || r.Greater != 0 || r.Less != 1 {
		t.Errorf("got %+v", r)
	}
	if r := RunLevelTest(nil, []float64{1}, Spread{}, 0.03); !math.IsNaN(r.Greater) {
		t.Errorf("no baseline: got %+v, want NaN p", r)
	}
}

// TestRunLevelDFFloor: with more candidate rounds than the baseline jobs
// have, the two variance terms nearly cancel; the degrees of freedom stay
// at no fewer than the job means' own instead of going to 0.
func TestRunLevelDFFloor(t *testing.T) {
	// Two one-round jobs, a candidate of three rounds, the job means'
	// variance just above what the rounds explain: Welch–Satterthwaite
	// alone gives 0.29 degrees of freedom.
	hist := [][]float64{{3.9096}, {3.9100}}
	cand := []float64{3.9095, 3.9101, 3.9098}
	s := Spread{JobVar: 1.0001e-4, DFBetween: 1, Within: 1e-4, DFWithin: 4, InvRounds: 1, Between: 1e-8}
	r := RunLevelTest(hist, cand, s, 0.03)
	if r.DF != 1 {
		t.Errorf("df %v, want 1 (the job means'), not Welch–Satterthwaite's 0.29", r.DF)
	}
}
