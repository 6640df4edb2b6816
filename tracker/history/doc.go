// Package history declares the interfaces through which perfgate's logic reaches
// history storage, and the guard every prune passes (Prune). Its subpackages own statistics (stats), verdicts (compare),
// rendering (report), configuration and GitHub Action glue. Nothing under
// tracker imports pgx, go-github or gorgonia.org/cu: those sit behind the
// interfaces declared here and in the subpackages that use them.
package history
