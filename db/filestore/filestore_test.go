package filestore

import (
	"testing"

	"github.com/perfgate/perfgate/tracker"
	"github.com/perfgate/perfgate/tracker/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) tracker.Store {
		s, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
