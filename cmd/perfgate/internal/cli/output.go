package cli

import (
	"fmt"
	"io"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// WriteOutput writes what write produces to path atomically and says so on
// standard error, or to standard output when path is "" (a command's --out).
func WriteOutput(e *Env, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(e.Stdout)
	}
	if err := atomicfile.WriteFunc(path, write); err != nil {
		return &model.InfraError{Op: "write " + path, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %s\n", path)
	return nil
}
