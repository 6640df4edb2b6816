package model

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// An Acceptance is a regression a maintainer accepted on a pull request
// (/perfgate accept GLOB [reason] in a comment): the benchmarks Glob
// matches ("suite/name", MatchGlob) that regress on pull request PR of
// Repo pass the gate, shown as accepted. When the pull request merges, the
// push that records the merge resets their baseline there (a Reset), so
// the accepted level becomes the new baseline. Who, Reason and Comment are
// the audit trail. Changes bounds it: the regressions the glob covered in
// the head's result when it was accepted, with their changes; a later
// result of such a benchmark is accepted only within the threshold of that
// change (compare.Accept), so an acceptance of +18% does not pass +60%.
type Acceptance struct {
	Repo    string    `json:"repo"`
	PR      int       `json:"pr"`
	HeadSHA string    `json:"head_sha"` // the pull request's head when it was accepted
	Glob    string    `json:"glob"`
	Who     string    `json:"who"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
	Comment string    `json:"comment"` // the command comment's URL
	// Changes holds, by "suite/name", the change (candidate/baseline − 1,
	// positive is worse) of each regression Glob covered when it was
	// accepted; empty when no result of the head was stored yet.
	Changes map[string]float64 `json:"changes,omitempty"`
}

// Check returns an *InputError for an acceptance that cannot be stored:
// no repository, pull request, author or time, a malformed glob, or text
// with control characters.
func (a Acceptance) Check() error {
	switch {
	case a.Repo == "" || a.PR <= 0:
		return &InputError{Msg: fmt.Sprintf("accept: no repository and pull request (%q #%d)", a.Repo, a.PR)}
	case strings.TrimSpace(a.Glob) == "":
		return &InputError{Msg: "accept: the benchmark glob is empty"}
	case CheckGlob(a.Glob) != nil:
		return &InputError{Msg: fmt.Sprintf("accept: %v", CheckGlob(a.Glob))}
	case a.Who == "":
		return &InputError{Msg: "accept: no author"}
	case a.At.IsZero():
		return &InputError{Msg: "accept: no time"}
	}
	for k, v := range a.Changes {
		if math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsFunc(k, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			return &InputError{Msg: fmt.Sprintf("accept: the accepted change of %q is not a finite number", k)}
		}
	}
	for _, f := range []struct{ name, v string }{{"glob", a.Glob}, {"who", a.Who}, {"reason", a.Reason}, {"repo", a.Repo}, {"head sha", a.HeadSHA}, {"comment", a.Comment}} {
		if strings.ContainsFunc(f.v, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			return &InputError{Msg: fmt.Sprintf("accept: the %s has control characters", f.name)}
		}
	}
	return nil
}

// Covers reports whether a accepts the benchmark key.
func (a Acceptance) Covers(key Key) bool { return MatchGlob(a.Glob, key.String()) }
