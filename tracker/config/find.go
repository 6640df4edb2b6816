package config

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfgate/perfgate/tracker/runmeta"
)

// Find returns the configuration file that applies in dir ("" = the
// working directory): DefaultFile at the root of the git checkout holding
// dir, else DefaultFile in dir. found is false when no file is there; path
// is then where it was looked for, for messages. It is the one place that
// decides where .perfgate.yml is.
func Find(ctx context.Context, dir string) (path string, found bool) {
	root := runmeta.RepoRoot(ctx, dir)
	if root == "" {
		root = dir
	}
	path = filepath.Join(root, DefaultFile)
	_, err := os.Stat(path)
	return path, !errors.Is(err, fs.ErrNotExist)
}

// LoadFound loads the file Find returns, or returns nil when there is none.
func LoadFound(ctx context.Context, dir string) (*Config, error) {
	path, found := Find(ctx, dir)
	if !found {
		return nil, nil
	}
	return Load(path)
}

// LoadOptional loads path, or, when path is "", the file Find returns for
// the working directory. Then a missing file is an error unless optional
// (nil, nil): a caller with results to judge needs no config.
func LoadOptional(ctx context.Context, path string, optional bool) (*Config, error) {
	if path == "" {
		var found bool
		if path, found = Find(ctx, ""); !found && optional {
			return nil, nil
		}
	}
	return Load(path)
}
