// Package archdoc keeps docs/architecture.md true: its test draws the
// import graph of the project's packages from 'go list' and fails when
// the Mermaid diagram in the document differs (-update rewrites it).
package archdoc
