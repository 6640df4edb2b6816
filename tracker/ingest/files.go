package ingest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfgate/perfgate/tracker/model"
)

// ParseFiles reads and parses files (directories, for criterion) in one
// format and pools benchmarks that appear in several of them (repeated runs
// of one tool). It returns nothing unless every file parses.
func ParseFiles(format string, paths []string, o Options) ([]model.Benchmark, error) {
	parts := make([][]model.Benchmark, 0, len(paths))
	for _, p := range paths {
		bs, err := parseFile(format, p, o)
		if err != nil {
			return nil, err
		}
		parts = append(parts, bs)
	}
	out, err := Merge(parts...)
	if err != nil {
		return nil, &model.InputError{File: paths[0], Msg: "cannot pool the files", Err: err}
	}
	return out, nil
}

// StdinName labels errors in input read from standard input ("-").
const StdinName = "standard input"

func parseFile(format, p string, o Options) ([]model.Benchmark, error) {
	if p == "-" {
		if format == Criterion || o.Stdin == nil {
			return nil, &model.InputError{File: StdinName, Msg: fmt.Sprintf("%s input cannot come from standard input (\"-\"); name a file", format)}
		}
		data, err := io.ReadAll(o.Stdin)
		if err != nil {
			return nil, &model.InputError{File: StdinName, Msg: "cannot read", Err: err}
		}
		return parse(format, StdinName, data, nil, o)
	}
	if format == Criterion {
		st, err := os.Stat(p)
		if err != nil {
			return nil, &model.InputError{File: p, Msg: "cannot read the criterion directory", Err: err}
		}
		if !st.IsDir() {
			return nil, &model.InputError{File: p, Msg: "criterion output is a directory (e.g. target/criterion), not a file"}
		}
		return ParseCriterion(os.DirFS(p), p, o)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, &model.InputError{File: p, Msg: "cannot read the file", Err: err}
	}
	return parse(format, p, data, binReader(p), o)
}

// binReader finds an nvbench --jsonbin file: the path as written (relative
// to where nvbench ran, usually the JSON's directory), then the file of that
// name in the <json>-bin directory next to the JSON. Either must lie in the
// JSON's directory (an os.Root, so neither "..", an absolute path elsewhere
// nor a symbolic link leads out): the JSON is input, and may have been
// written to make perfgate read another file's bytes as samples.
func binReader(jsonPath string) func(string) ([]byte, error) {
	dir := filepath.Dir(jsonPath)
	return func(name string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		var candidates []string
		if !filepath.IsAbs(name) {
			candidates = append(candidates, name)
		} else if absDir, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(absDir, name); err == nil {
				candidates = append(candidates, rel)
			}
		}
		candidates = append(candidates, filepath.Join(filepath.Base(jsonPath)+"-bin", filepath.Base(name)))
		var firstErr error
		for _, c := range candidates {
			data, err := root.ReadFile(c)
			if err == nil {
				return data, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		return nil, fmt.Errorf("%w (sample files are read only from %s)", firstErr, dir)
	}
}
