package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// Exit codes (see cmd/perfgate/doc.go).
const (
	ExitOK         = 0
	ExitRegression = 1 // a regression found, a check failed
	ExitBadInput   = 2 // bad usage or bad input
	ExitInfra      = 3 // an infrastructure failure
)

// An ExitError carries an exit code chosen by a command.
type ExitError struct {
	Code int
	Err  error // nil: print nothing more (the command already reported)
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// ErrRegression is returned by a command that found a regression and has
// already printed its report.
var ErrRegression = &ExitError{Code: ExitRegression}

// ErrHelp is returned by ParseFlags when -h/--help was asked for.
var ErrHelp = errors.New("help requested")

// UsageErrorf reports bad flags or arguments (exit code 2).
func UsageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitBadInput, Err: fmt.Errorf(format, args...)}
}

// Code prints err on stderr (unless the command already reported it) and
// maps it to an exit code: an ExitError's own, 2 for model's input errors
// and conflicts, 3 for anything else.
func Code(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, ErrHelp) {
		return ExitOK
	}
	code := ExitInfra
	var xe *ExitError
	switch {
	case errors.As(err, &xe):
		code = xe.Code
		if xe.Err == nil {
			return code
		}
	case model.IsInputError(err), errors.As(err, new(*model.ConflictError)):
		code = ExitBadInput
	case errors.Is(err, context.Canceled):
		code = ExitInfra
	}
	fmt.Fprintf(stderr, "perfgate: %s\n", strings.TrimSpace(err.Error()))
	return code
}

// GateErr is the exit of a comparison whose report is printed, from its
// compare.Comparison.Gate: nil when it passes, ErrRegression on a
// regression, exit 1 saying why when inconclusive results fail it
// (--inconclusive fail).
func GateErr(outcome compare.Outcome, fails bool) error {
	switch {
	case !fails:
		return nil
	case outcome == compare.OutcomeInconclusive:
		return &ExitError{Code: ExitRegression, Err: errors.New("the results are inconclusive (the report says which) and --inconclusive is fail")}
	}
	return ErrRegression
}
