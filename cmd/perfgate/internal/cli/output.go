package cli

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

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

// WriteFiles returns a function that writes files (name → content, names
// made by perfgate, plain file names) into dir, creating it, each file
// atomically, and says how many it wrote; given an error, it returns it and
// writes nothing. Its shape lets a producer of (files, error) be passed
// whole: WriteFiles(e, dir)(chart.RunCharts(runs, "svg")).
func WriteFiles(e *Env, dir string) func(files map[string][]byte, err error) error {
	return func(files map[string][]byte, err error) error {
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &model.InfraError{Op: "create " + dir, Err: err}
		}
		names := slices.Sorted(maps.Keys(files))
		for _, n := range names {
			if n != filepath.Base(n) || n == "." || n == ".." {
				return fmt.Errorf("cli: %q is not a plain file name", n)
			}
			if err := atomicfile.Write(filepath.Join(dir, n), files[n]); err != nil {
				return &model.InfraError{Op: "write " + filepath.Join(dir, n), Err: err}
			}
		}
		fmt.Fprintf(e.Stderr, "perfgate: wrote %d files to %s\n", len(names), dir)
		return nil
	}
}
