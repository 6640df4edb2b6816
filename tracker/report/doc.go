// Package report renders comparisons (package compare) for people and
// programs: Markdown for the pull-request comment and the job summary, an
// aligned text table for the terminal, JSON in the shape of perfgate
// compare --format json, and the one-line verdict.
//
// Rendering is pure: no I/O beyond the writer given to JSON, no clock, no
// environment. Every piece of user text (benchmark names, error messages,
// environment values, branch and testbed names) is escaped for its
// medium: in Markdown, no raw HTML, no @mentions, no broken tables; in
// text, no control characters. The package imports only tracker/compare,
// tracker/model, tracker/units (and the other tracker packages whose results
// it renders) and the standard library.
package report
