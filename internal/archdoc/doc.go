// Package archdoc keeps docs/architecture.md true: its test draws the
// import graph of the project's packages from 'go list' and fails when
// the Mermaid diagram in the document differs (-update rewrites it), and
// it walks the action's flow on a pull request with a results file
// (walk_test.go) and fails when the counts the document gives differ.
package archdoc
