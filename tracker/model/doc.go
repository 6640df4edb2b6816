// Package model owns perfgate's data model: the results-v1 interchange format
// (one JSON document per run), its loader and validator, and the plain data
// types that cross package boundaries (run references, testbed fingerprints,
// baseline and trend queries).
//
// It imports only the standard library. Every other perfgate package may
// import it; it imports none of them.
package model
