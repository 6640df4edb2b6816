package cli

import (
	"fmt"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// WriteFile writes what a command made to the file its --out names,
// atomically, and says so on standard error; a failed write is an
// infrastructure error (exit 3) naming the file. summary and the charts
// write through it.
func WriteFile(e *Env, path string, data []byte) error {
	if err := atomicfile.Write(path, data); err != nil {
		return &model.InfraError{Op: "write " + path, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %s\n", path)
	return nil
}
