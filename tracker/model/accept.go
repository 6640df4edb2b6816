package model

import (
	"fmt"
	"strings"
	"time"
)

// An Acceptance is a regression a maintainer accepted on a pull request
// (/perfgate accept GLOB [reason] in a comment): the benchmarks Glob
// matches ("suite/name", MatchGlob) that regress on pull request PR of
// Repo pass the gate, shown as accepted. When the pull request merges, the
// push that records the merge resets their baseline there (a Reset), so
// the accepted level becomes the new baseline. Who, Reason and Comment are
// the audit trail.
type Acceptance struct {
	Repo    string    `json:"repo"`
	PR      int       `json:"pr"`
	HeadSHA string    `json:"head_sha"` // the pull request's head when it was accepted
	Glob    string    `json:"glob"`
	Who     string    `json:"who"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
	Comment string    `json:"comment"` // the command comment's URL
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
	for _, f := range []struct{ name, v string }{{"glob", a.Glob}, {"who", a.Who}, {"reason", a.Reason}, {"repo", a.Repo}, {"head sha", a.HeadSHA}, {"comment", a.Comment}} {
		if strings.ContainsFunc(f.v, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			return &InputError{Msg: fmt.Sprintf("accept: the %s has control characters", f.name)}
		}
	}
	return nil
}

// Covers reports whether a accepts the benchmark key.
func (a Acceptance) Covers(key Key) bool { return MatchGlob(a.Glob, key.String()) }
