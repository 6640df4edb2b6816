package resultsjson

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestLoadUnreadable checks that a file that cannot be read is an
// InputError that names the file and says why, once.
func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name, path, want string
		is               error
	}{
		{"missing file", missing, missing + ": cannot read results file: no such file or directory", fs.ErrNotExist},
		{"directory", dir, dir + ": cannot read results file: is a directory", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.path)
			if !model.IsInputError(err) || err.Error() != tt.want {
				t.Fatalf("Load = %v, want InputError %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
		})
	}
}
