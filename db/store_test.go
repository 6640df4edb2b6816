package db

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/storetest"
)

var _ history.Store = (*Store)(nil)

// TestContract runs the history.Store contract shared with the embedded
// store, each case on its own fresh database.
func TestContract(t *testing.T) {
	serverURL(t)
	storetest.Run(t, func(t *testing.T) history.Store {
		s, _ := migratedStore(t)
		return s
	})
}
