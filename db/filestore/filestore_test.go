package filestore

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) history.Store {
		s, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
