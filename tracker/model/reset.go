package model

import (
	"fmt"
	"strings"
	"time"
)

// A Reset is a re-baseline point (perfgate baseline reset): runs of Repo
// started before At stop feeding the baseline and the run-to-run spread of
// the benchmarks Glob matches ("suite/name", MatchGlob). They stay stored,
// for trend. Who and Reason are the audit trail.
type Reset struct {
	Repo   string    `json:"repo"` // "" = every repository of the store
	Glob   string    `json:"glob"`
	At     time.Time `json:"at"`
	Who    string    `json:"who"`
	Reason string    `json:"reason"`
}

// Check returns an *InputError for a reset that cannot be stored: an empty
// or malformed glob, no time, or text with control characters.
func (r Reset) Check() error {
	switch {
	case strings.TrimSpace(r.Glob) == "":
		return &InputError{Msg: "reset: the benchmark glob is empty"}
	case CheckGlob(r.Glob) != nil:
		return &InputError{Msg: fmt.Sprintf("reset: %v", CheckGlob(r.Glob))}
	case r.At.IsZero():
		return &InputError{Msg: "reset: no time"}
	}
	for _, f := range []struct{ name, v string }{{"glob", r.Glob}, {"who", r.Who}, {"reason", r.Reason}, {"repo", r.Repo}} {
		if strings.ContainsFunc(f.v, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			return &InputError{Msg: fmt.Sprintf("reset: the %s has control characters", f.name)}
		}
	}
	return nil
}

// Covers reports whether r drops benchmark key of run: the run is of r's
// repository (or r is for every one), started before r.At, and r.Glob
// matches the key.
func (r Reset) Covers(run *Run, key Key) bool {
	return (r.Repo == "" || r.Repo == run.Repo) && run.StartedAt.Before(r.At) && MatchGlob(r.Glob, key.String())
}

// ApplyResets removes from the baseline's runs the benchmarks (and
// summaries) that a reset covers, so that history before a reset feeds
// neither the baseline nor the spread. The runs it changes are copies.
func ApplyResets(b *Baseline, resets []Reset) {
	if len(resets) == 0 {
		return
	}
	b.Resets = append(b.Resets, resets...)
	covered := func(run *Run, k Key) bool {
		for _, r := range resets {
			if r.Covers(run, k) {
				return true
			}
		}
		return false
	}
	for i, res := range b.Runs {
		kept := *res // the store's runs are left as they are
		kept.Benchmarks, kept.Summaries = nil, nil
		for _, bm := range res.Benchmarks {
			if !covered(&res.Run, Key{Suite: bm.Suite, Name: bm.Name}) {
				kept.Benchmarks = append(kept.Benchmarks, bm)
			}
		}
		for j, sum := range res.Summaries {
			if !covered(&res.Run, res.SummaryKey(j).Key()) {
				kept.Summaries = append(kept.Summaries, sum)
			}
		}
		b.Runs[i] = &kept
	}
}
