// Package cli is the plumbing every perfgate command shares, in the style
// of cli/cli's pkg/cmdutil: the outside world a command may touch (Env),
// the table of commands and the dispatch to one of them, the exit codes
// and the typed errors that choose them, the flag set a command parses
// its arguments with (through cliflag), the flag values several commands
// share (AgeCutoff, ParseDuration, OldNew), and the version the program
// reports (Version).
//
// Only package main prints the errors this package maps; the libraries
// under tracker/ never import it.
package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cliflag"
)

// An Env is what a command may touch of the outside world. Commands read
// environment variables through Getenv so tests can run them in-process.
type Env struct {
	Stdin  io.Reader // nil: a command that reads "-" says it cannot
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// GetenvOr returns the value of the environment variable key, or def when
// it is empty.
func (e *Env) GetenvOr(key, def string) string {
	if v := e.Getenv(key); v != "" {
		return v
	}
	return def
}

// Warn prints a warning on a line of standard error, as every command
// words them: "perfgate: warning: msg".
func (e *Env) Warn(msg string) { fmt.Fprintf(e.Stderr, "perfgate: warning: %s\n", msg) }

// A Command is one perfgate subcommand.
type Command struct {
	Name string
	Run  func(ctx context.Context, args []string, e *Env) error
}

// Commands are the subcommands of a program, by name.
type Commands map[string]*Command

// Register adds c; a name registered twice is a programming error.
func (cs Commands) Register(c *Command) {
	if _, dup := cs[c.Name]; dup {
		panic("perfgate: command registered twice: " + c.Name)
	}
	cs[c.Name] = c
}

// Run dispatches args to a command and turns the error it returns into an
// exit code (Code). "help" and --help print usage on standard output (exit
// 0: it was asked for); no arguments print it on standard error (exit 2:
// a mistake); "help NAME" is NAME --help; --version is the version
// command; an unknown command suggests the nearest one.
func (cs Commands) Run(ctx context.Context, args []string, e *Env, usage string) int {
	if len(args) == 0 {
		io.WriteString(e.Stderr, usage)
		return ExitBadInput
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c, ok := cs[args[1]]; ok {
				return Code(c.Run(ctx, []string{"-help"}, e), e.Stderr)
			}
			args = args[1:] // help NAME of no command: as if NAME were run
		} else {
			io.WriteString(e.Stdout, usage)
			return ExitOK
		}
	}
	if args[0] == "-version" || args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := cs[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "perfgate: unknown command %q%s\nRun 'perfgate help' for the list of commands.\n", args[0], cs.didYouMean(args[0]))
		return ExitBadInput
	}
	return Code(c.Run(ctx, args[1:], e), e.Stderr)
}

// didYouMean is " (did you mean "X"?)" for the command nearest to name, or "".
func (cs Commands) didYouMean(name string) string {
	names := make([]string, 0, len(cs))
	for n := range cs {
		names = append(names, n)
	}
	if s := cliflag.Suggest(name, names); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// DocUsage returns the usage text of a doc.go file: its package comment,
// the text between "/*" and "*/" (as golang.org/x/tools' commands keep it).
func DocUsage(doc string) string {
	_, after, _ := strings.Cut(doc, "/*\n")
	text, _, _ := strings.Cut(after, "*/")
	return text
}
