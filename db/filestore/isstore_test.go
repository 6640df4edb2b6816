package filestore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestIsStore: a directory is a store once a run was recorded into it, and
// stays one when pruned empty; a missing or unrelated directory is not.
func TestIsStore(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	if IsStore(store) || IsStore(dir) {
		t.Fatal("IsStore is true before anything was recorded")
	}
	if err := os.WriteFile(filepath.Join(dir, "runs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if IsStore(dir) {
		t.Error("a file named runs makes a store")
	}
	s, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prune(context.Background(), model.PruneQuery{BaselineBranch: "main"}); err != nil {
		t.Fatal(err)
	}
	if !IsStore(store) {
		t.Error("IsStore is false for a store that was written to")
	}
}
