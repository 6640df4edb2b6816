package filestore

import (
	"encoding/json"
	"os"

	"github.com/perfgate/perfgate/internal/atomicfile"
)

// A jsonList is a store file that holds one JSON array, oldest first,
// rewritten whole under the store's lock to add to it (resets.json,
// acceptances.json). what names its contents in errors.
type jsonList[T any] struct {
	path, what string
}

// read returns the list; a missing file is an empty one.
func (l jsonList[T]) read() ([]T, error) {
	b, err := os.ReadFile(l.path)
	if notExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, infra("read "+l.what, err)
	}
	var out []T
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, infra("read "+l.what, err)
	}
	return out, nil
}

// add appends v and writes the list back (the caller holds the lock).
func (l jsonList[T]) add(v T) error {
	all, err := l.read()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(append(all, v), "", "  ")
	if err != nil {
		return infra("encode "+l.what, err)
	}
	if err := atomicfile.Write(l.path, b); err != nil {
		return infra("save "+l.what, err)
	}
	return nil
}
