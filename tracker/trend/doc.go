// Package trend finds step changes in a benchmark's history and renders
// trend series as a table, CSV or JSON. It is pure: it reads no clock,
// files or environment, and imports only tracker packages, internal/textcol
// (its table) and the standard library.
package trend
