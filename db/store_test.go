package db

import (
	"testing"

	"github.com/perfgate/perfgate/tracker"
	"github.com/perfgate/perfgate/tracker/storetest"
)

var _ tracker.Store = (*Store)(nil)

// TestContract runs the tracker.Store contract shared with the embedded
// store, each case on its own fresh database.
func TestContract(t *testing.T) {
	serverURL(t)
	storetest.Run(t, func(t *testing.T) tracker.Store {
		s, _ := migratedStore(t)
		return s
	})
}
