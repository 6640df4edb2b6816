// Package history declares the interfaces through which perfgate's logic
// reaches history storage (Store and its parts, ResetStore, ResetSource,
// AcceptanceStore, ShardStore), and the guard every prune passes (Prune).
// Both stores implement them (db, db/filestore) and pass tracker/storetest.
// Nothing under tracker imports pgx, go-github or gorgonia.org/cu: those sit
// behind interfaces like these.
package history
