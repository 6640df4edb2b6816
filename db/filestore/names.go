package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// fileName returns the run file name for a run ID: the ID itself when it is
// a plain lower-case name, else a sanitised, lower-cased ID plus a hash of
// the ID, so that distinct IDs never share a file, even on a file system
// that ignores case.
func fileName(id string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '_'
	}, id)
	if clean == id && len(id) <= 100 && !strings.HasPrefix(id, ".") {
		return id + ".json"
	}
	if len(clean) > 60 {
		clean = clean[:60]
	}
	sum := sha256.Sum256([]byte(id))
	return strings.TrimLeft(clean, ".") + "~" + hex.EncodeToString(sum[:8]) + ".json"
}
