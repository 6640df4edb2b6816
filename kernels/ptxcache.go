package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// ptxKey is the cache key of a compilation: the SHA-256 of the source, the
// target architecture, the NVRTC version and the options, each separated so
// that no two different inputs share a key.
func ptxKey(source, arch, nvrtcVersion string, options []string) string {
	h := sha256.New()
	for _, part := range append([]string{source, arch, nvrtcVersion}, options...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// A ptxCache keeps compiled PTX on disk under dir/ptx/KEY.ptx.
type ptxCache struct{ dir string }

// CacheDir returns perfgate's cache directory: dir, or the user cache
// directory + /perfgate. The PTX cache and the Python harness live there.
func CacheDir(dir string) string { return cacheDir(dir) }

// cacheDir returns dir, or the user cache directory + /perfgate.
func cacheDir(dir string) string {
	if dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "perfgate-cache")
	}
	return filepath.Join(base, "perfgate")
}

func (c ptxCache) path(key string) string { return filepath.Join(c.dir, "ptx", key+".ptx") }

// get returns the cached PTX for key; ok is false on a miss.
func (c ptxCache) get(key string) (ptx string, ok bool, err error) {
	b, err := os.ReadFile(c.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// put stores ptx under key atomically (a temporary file renamed into place),
// so a concurrent reader never sees half a file.
func (c ptxCache) put(key, ptx string) error {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), key+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := f.WriteString(ptx); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), p)
}
