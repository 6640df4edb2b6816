// Package trend finds step changes in a benchmark's history and renders
// trend series as a table, CSV or JSON. It is pure: it reads no clock,
// files or environment, and imports only tracker/model and the standard
// library.
package trend
