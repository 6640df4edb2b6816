package model

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// An InputError reports bad input: a file, the JSON path (or line) of the
// problem within it, and what is wrong. Commands exit with code 2 on it.
type InputError struct {
	File string // the file name, or "" when the input was not a file
	Path string // a JSON path such as $.benchmarks[3].samples[2], or "line 12"
	Msg  string
	Err  error // the underlying error, if any
	// Setting is the setting whose value is bad, when the input was a
	// setting (a flag): Error puts its flag before Msg.
	Setting Flag
}

func (e *InputError) Error() string {
	s := e.Msg
	if c := e.cause(); c != "" && !strings.Contains(s, c) {
		s += ": " + c
	}
	if e.Setting != "" {
		s = e.Setting.String() + ": " + s
	}
	if e.Path != "" {
		s = e.Path + ": " + s
	}
	if e.File != "" {
		s = e.File + ": " + s
	}
	return s
}

// Invalid returns the InputError for the value at path (a JSON path such
// as $.run.id), its message formatted from format and args.
func Invalid(path, format string, args ...any) *InputError {
	return &InputError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// cause returns the text of the underlying error, if any, without the path
// of an *fs.PathError (File names it already).
func (e *InputError) cause() string {
	var pe *fs.PathError
	switch {
	case e.Err == nil:
		return ""
	case errors.As(e.Err, &pe):
		return pe.Err.Error()
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// IsInputError reports whether err is, or wraps, an *InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// An InfraError reports that something perfgate depends on (a database, the
// GPU, the GitHub API) failed. Commands exit with code 3 on it.
type InfraError struct {
	Op  string // what perfgate was doing, e.g. "connect to database"
	Err error
}

func (e *InfraError) Error() string { return fmt.Sprintf("%s: %v", e.Op, e.Err) }

// Unwrap returns the underlying error.
func (e *InfraError) Unwrap() error { return e.Err }

// A ConflictError reports that a run ID was recorded before with other content.
// It is bad input (exit code 2): run IDs must be unique per run.
type ConflictError struct{ RunID string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("run %s was already recorded with different content (run ids must be unique per run)", e.RunID)
}
