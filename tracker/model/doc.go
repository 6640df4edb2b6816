// Package model owns perfgate's data model: the types of the results-v1
// document (one per run) and the rules a value of them must keep
// (Validate, Canonical), and the plain data types that cross package
// boundaries (run references, testbed fingerprints, history queries and
// the summaries a store reduces runs to, resets, shard reports, the typed
// errors). It does no I/O and no encoding: tracker/resultsjson reads and
// writes the documents.
//
// It imports only the standard library. Every other perfgate package may
// import it; it imports none of them.
package model
