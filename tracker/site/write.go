package site

import (
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// Write writes the files Build returned under dir. Their names are Build's
// (slugs of letters, digits and dashes), never user text directly.
func Write(dir string, files map[string][]byte) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return &model.InfraError{Op: "create " + filepath.Dir(path), Err: err}
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return &model.InfraError{Op: "write " + path, Err: err}
		}
	}
	return nil
}
