// Package trend finds step changes in a benchmark's history and its
// run-to-run spread (Analyze, Changes). tracker/report renders what it
// finds. It is pure: it reads no clock, files or environment, and imports
// only tracker packages and the standard library.
package trend
