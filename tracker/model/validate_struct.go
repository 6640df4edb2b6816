package model

import (
	"fmt"
	"math"
	"regexp"
	"slices"
)

// RepoPattern and CommitPattern are what a run's repo (owner/name) and
// commit (a full lowercase hex SHA) must match.
var (
	RepoPattern   = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	CommitPattern = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)
)

// Validate checks r by the loader's rules, on the structs: the first
// problem is reported with the message and JSON path that loading r's
// encoding would give (TestValidateAgrees), so a producer checks what it
// built without encoding it and parsing it back. Values JSON cannot hold
// (NaN, infinities, years outside 0–9999) are reported too, at their path.
func (r *Results) Validate() error {
	if err := r.validate(); err != nil {
		return err
	}
	return nil
}

// validate checks in the loader's order: object keys sorted, so benchmarks
// before run before schema.
func (r *Results) validate() *InputError {
	seen := make(map[Key]int, len(r.Benchmarks))
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		if err := b.validate(i); err != nil {
			return err
		}
		if j, dup := seen[b.Key()]; dup {
			return Invalid(fmt.Sprintf("$.benchmarks[%d]", i), "duplicate benchmark %s (first at $.benchmarks[%d])", b.Key(), j)
		}
		seen[b.Key()] = i
	}
	if err := r.Run.validate(); err != nil {
		return err
	}
	if r.Schema != Schema {
		return Invalid("$.schema", "must be %q, got %q", Schema, r.Schema)
	}
	return nil
}

// nonEmpty checks a required string.
func nonEmpty(path, s string) *InputError {
	if s == "" {
		return Invalid(path, "must not be empty")
	}
	return nil
}

func (r *Run) validate() *InputError {
	if err := nonEmpty("$.run.branch", r.Branch); err != nil {
		return err
	}
	if r.Commit == "" || !CommitPattern.MatchString(r.Commit) {
		return orEmpty("$.run.commit", r.Commit, "a full lowercase hex commit SHA (40 or 64 digits)")
	}
	if !slices.Contains(Events, r.Event) {
		return Invalid("$.run.event", "must be one of %q, got %q", Events, r.Event)
	}
	if err := nonEmpty("$.run.id", r.ID); err != nil {
		return err
	}
	if r.PR < 0 {
		return Invalid("$.run.pr", "must be a positive integer, got %v", r.PR)
	}
	if r.Repo == "" || !RepoPattern.MatchString(r.Repo) {
		return orEmpty("$.run.repo", r.Repo, "of the form owner/name")
	}
	if y := r.StartedAt.Year(); y < 0 || y > 9999 {
		return Invalid("$.run.started_at", "year %d cannot be written as an RFC 3339 time", y)
	}
	return nonEmpty("$.run.testbed", r.Testbed)
}

// orEmpty reports a string that must match a pattern as the loader does.
func orEmpty(path, s, what string) *InputError {
	if s == "" {
		return Invalid(path, "must not be empty")
	}
	return Invalid(path, "%q is not %s", s, what)
}

func (b *Benchmark) validate(i int) *InputError {
	p := func(field string) string { return fmt.Sprintf("$.benchmarks[%d].%s", i, field) }
	if b.Better != Lower && b.Better != Higher {
		return Invalid(p("better"), "must be one of %q, got %q", []string{string(Lower), string(Higher)}, string(b.Better))
	}
	for _, k := range SortedKeys(b.Metrics) {
		if v := b.Metrics[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return Invalid(p("metrics."+k), "number %v is not finite", v)
		}
	}
	for _, c := range []struct{ field, s string }{{"name", b.Name}, {"suite", b.Suite}, {"unit", b.Unit}} {
		if err := nonEmpty(p(c.field), c.s); err != nil {
			return err
		}
	}
	if b.Samples == nil {
		return Invalid(p("samples"), "must be an array of numbers, not null")
	}
	for j, v := range b.Samples {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return Invalid(fmt.Sprintf("%s[%d]", p("samples"), j), "number %v is not finite", v)
		case !ValidSample(b.Unit, v):
			return Invalid(fmt.Sprintf("%s[%d]", p("samples"), j), "negative time sample %v (unit %s)", v, b.Unit)
		}
	}
	if len(b.Samples) == 0 && b.Error == "" {
		return Invalid(p("samples"), "empty: a benchmark without samples must say why in \"error\"")
	}
	return nil
}
