// Package pyharness holds perfgate's Python harness (perfgate_harness/, a
// Python package that needs only the standard library and torch) and writes
// it out for a python: suite to import: the perfgate binary carries it, so a
// runner needs no package index and no checkout of perfgate.
//
// It owns the Python sources and nothing else; it imports the standard
// library only. docs/python.md describes the harness.
package pyharness

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Package is the Python package's name (python3 -m perfgate_harness).
const Package = "perfgate_harness"

//go:embed perfgate_harness/*.py
var files embed.FS

// Extract writes the harness under cacheDir, in a directory named by the
// sources' SHA-256 (so a new perfgate never runs an old copy and a copy is
// written once), and returns the directory to put on PYTHONPATH.
func Extract(cacheDir string) (string, error) {
	h := sha256.New()
	names, err := fs.Glob(files, Package+"/*.py")
	if err != nil {
		return "", err
	}
	for _, n := range names {
		data, _ := files.ReadFile(n)
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(data))
		h.Write(data)
	}
	dir := filepath.Join(cacheDir, "pyharness", hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, Package, "__main__.py")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, Package), 0o755); err != nil {
		return "", err
	}
	for _, n := range names {
		data, _ := files.ReadFile(n)
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(n)), data, 0o644); err != nil {
			return "", err
		}
	}
	// Another process may have written the same copy meanwhile: either is fine.
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, Package, "__main__.py")); serr != nil {
			return "", err
		}
	}
	return dir, nil
}
