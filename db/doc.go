// Package db is perfgate's Postgres history store: the schema (numbered
// migrations embedded from migrations/ and applied with tern under an
// advisory lock) and a pgxpool-backed Store that implements history.Store (package tracker/history)
// with the same contract as the embedded directory store.
//
// All of perfgate's SQL lives here. The package imports tracker/model, pgx
// and tern only; it must not import tracker or anything under cmd.
package db
