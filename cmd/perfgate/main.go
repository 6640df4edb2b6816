// Command perfgate is a GPU performance gate for pull requests. See doc.go.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cliflag"
	"github.com/perfgate/perfgate/tracker/model"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a command may touch of the outside world. Commands read
// environment variables through Getenv so tests can run them in-process.
type env struct {
	Stdin  io.Reader // nil: a command that reads "-" says it cannot
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// A command is one perfgate subcommand. Each lives in its own cmd_NAME.go file
// and adds itself to commands from an init function; doc.go lists them.
type command struct {
	Name string
	Run  func(ctx context.Context, args []string, e *env) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("perfgate: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

// run is the whole program: it dispatches to a command and turns the error it
// returns into an exit code. It is what the tests call.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	return runEnv(ctx, args, e)
}

func runEnv(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return exitCode(c.Run(ctx, []string{"-help"}, e), e)
			}
		}
		usage(e.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "-version" || args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "perfgate: unknown command %q%s\nRun 'perfgate help' for the list of commands.\n", args[0], didYouMean(args[0]))
		return exitBadInput
	}
	return exitCode(c.Run(ctx, args[1:], e), e)
}

// doc is doc.go, whose comment is the usage text (as golang.org/x/tools'
// commands do it).
//
//go:embed doc.go
var doc string

// usage prints the package comment of doc.go: the commands and exit codes.
func usage(w io.Writer) {
	_, after, _ := strings.Cut(doc, "/*\n")
	text, _, _ := strings.Cut(after, "*/")
	io.WriteString(w, text)
}

// didYouMean is " (did you mean "X"?)" for the command nearest to name, or "".
func didYouMean(name string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	if s := cliflag.Suggest(name, names); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// Exit codes (see doc.go).
const (
	exitOK         = 0
	exitRegression = 1
	exitBadInput   = 2
	exitInfra      = 3
)

// An exitError carries an exit code chosen by a command.
type exitError struct {
	code int
	err  error // nil: print nothing more (the command already reported)
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// errRegression is returned by a command that found a regression and has
// already printed its report.
var errRegression = &exitError{code: exitRegression}

// usageError reports bad flags or arguments (exit code 2).
func usageError(format string, args ...any) error {
	return &exitError{code: exitBadInput, err: fmt.Errorf(format, args...)}
}

// errHelp is returned by parseFlags when -h/--help was asked for.
var errHelp = errors.New("help requested")

// exitCode prints err (unless already reported) and maps it to an exit code.
func exitCode(err error, e *env) int {
	if err == nil || errors.Is(err, errHelp) {
		return exitOK
	}
	code := exitInfra
	var xe *exitError
	switch {
	case errors.As(err, &xe):
		code = xe.code
		if xe.err == nil {
			return code
		}
	case model.IsInputError(err), errors.As(err, new(*model.ConflictError)):
		code = exitBadInput
	case errors.Is(err, context.Canceled):
		code = exitInfra
	}
	fmt.Fprintf(e.Stderr, "perfgate: %s\n", strings.TrimSpace(err.Error()))
	return code
}

// newFlagSet makes a command's flag set. Usage text goes to stderr, and
// parse errors come back as errors (never os.Exit).
func newFlagSet(e *env, name, usageLine string) *flag.FlagSet {
	fs := flag.NewFlagSet("perfgate "+name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.Stderr, "usage: perfgate %s %s\n\nflags:\n", name, usageLine)
		cliflag.PrintDefaults(e.Stderr, fs)
	}
	return fs
}

// parseFlags parses args into fs: flags may come before, between and after
// the arguments ("ingest --format gotest bench.txt --out r.json"), "--" ends
// them, and fs.Args() holds the rest. -h prints the usage (errHelp); a bad
// flag is one line with a hint, not the whole usage (exit 2).
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := cliflag.Parse(fs, args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, cliflag.ErrHelp):
		fs.Usage()
		return errHelp
	}
	return usageError("%s: %w\nRun '%s --help' for its flags.", strings.TrimPrefix(fs.Name(), "perfgate "), err, fs.Name())
}

// parseFlagsAndFiles parses args into fs and returns the arguments that are
// not flags ("check --candidate pr/*.json --threshold 5").
func parseFlagsAndFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// envDefault returns the value of the environment variable key, or def.
func envDefault(e *env, key, def string) string {
	if v := e.Getenv(key); v != "" {
		return v
	}
	return def
}
