package compare

// An InconclusivePolicy says what a comparison whose benchmarks include
// inconclusive verdicts (Summary.Inconclusive), or that judged nothing,
// does to the gate when none regressed.
type InconclusivePolicy string

// The inconclusive policies (check --inconclusive, the action's
// inconclusive input, thresholds.inconclusive in .perfgate.yml).
const (
	// InconclusivePass passes: perfgate's behaviour before the policy
	// existed (a status "pass: 4 too noisy").
	InconclusivePass InconclusivePolicy = "pass"
	// InconclusiveNeutral does not fail, but the outcome is inconclusive,
	// never pass: the status says "inconclusive: …", the verdict output
	// is inconclusive.
	InconclusiveNeutral InconclusivePolicy = "neutral"
	// InconclusiveFail fails as a regression does.
	InconclusiveFail InconclusivePolicy = "fail"
)

// DefaultInconclusive is neutral: a doubled benchmark on a noisy host must
// not read as a plain pass, yet failing every pull request the host was too
// noisy to judge teaches a team to turn the gate off.
const DefaultInconclusive = InconclusiveNeutral

// InconclusivePolicies lists the policies, the default first.
var InconclusivePolicies = []string{string(InconclusiveNeutral), string(InconclusivePass), string(InconclusiveFail)}

// An Outcome is a comparison's overall result under a policy.
type Outcome string

// The outcomes.
const (
	OutcomePass         Outcome = "pass"
	OutcomeInconclusive Outcome = "inconclusive"
	OutcomeFail         Outcome = "fail"
)

// Inconclusive counts the benchmarks whose verdict leaves the question
// open: warn, noisy, insufficient and not yet gateable, and those not
// judged at all (error, incomparable): none of them is evidence of no
// regression.
func (s Summary) Inconclusive() int {
	return s.Warnings + s.Noisy + s.Insufficient + s.NotYet + s.Errors + s.Incomparable
}

// Changed reports whether any benchmark is not unchanged: a verdict a
// reader of the pull request should see (skipped ones are not).
func (s Summary) Changed() bool {
	return s.Regressions+s.Accepted+s.Improvements+s.Warnings+s.Insufficient+s.Errors+s.Incomparable+s.Noisy+s.NotYet > 0
}

// Gate returns the outcome of s under policy p ("" is DefaultInconclusive)
// and whether it fails the gate. A regression fails under every policy.
// Under pass the outcome is what it was before the policy: inconclusive
// only when no benchmark was judged (errors, incomparable or insufficient
// only). Under neutral and fail any inconclusive benchmark makes it
// inconclusive, and fail fails it.
func (s Summary) Gate(p InconclusivePolicy) (Outcome, bool) {
	judged := s.Improvements+s.Warnings+s.Unchanged+s.Noisy+s.Skipped+s.Accepted > 0
	switch {
	case s.Regressions > 0:
		return OutcomeFail, true
	case p == InconclusivePass && judged:
		return OutcomePass, false
	case p == InconclusivePass:
		return OutcomeInconclusive, false
	case !judged || s.Inconclusive() > 0:
		return OutcomeInconclusive, p == InconclusiveFail
	}
	return OutcomePass, false
}

// Gate is the comparison's outcome under its Options.Inconclusive policy,
// and whether it fails the gate.
func (c *Comparison) Gate() (Outcome, bool) { return c.Summary.Gate(c.Options.Inconclusive) }

// validInconclusive reports whether p is a policy or "" (the default).
func validInconclusive(p InconclusivePolicy) bool {
	return p == "" || p == InconclusivePass || p == InconclusiveNeutral || p == InconclusiveFail
}
