// Command perfgate is a GPU performance gate for pull requests. See doc.go.
package main

import (
	"context"
	_ "embed"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// The libraries name settings (model.Flag); the command spells them.
func init() { model.SpellFlag = cli.SpellFlag }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// commands are perfgate's subcommands. Each lives in its own cmd_NAME.go
// file and registers itself from an init function; doc.go lists them.
var commands = cli.Commands{}

// run is the whole program: it dispatches to a command and turns the error it
// returns into an exit code. It is what the tests call.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &cli.Env{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	return runEnv(ctx, args, e)
}

func runEnv(ctx context.Context, args []string, e *cli.Env) int {
	e.RenameEnv(compare.RenamedEnvs())
	return commands.Run(ctx, args, e, cli.DocUsage(doc))
}

// doc is doc.go, whose comment is the usage text (as golang.org/x/tools'
// commands do it).
//
//go:embed doc.go
var doc string
