package main

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	commands.Register(&cli.Command{Name: "demo", Run: runDemo})
}

func runDemo(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "demo", "[--format markdown|text|json] [--examples DIR]")
	format := fs.String("format", report.FormatMarkdown, "output format: "+strings.Join(report.Formats, ", "))
	dir := fs.String("examples", "examples", "the example data `DIR`: history/*.json and pr.json")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("demo: unexpected argument %q", fs.Arg(0))
	}
	if err := cli.CheckChoice("--format", *format, report.Formats); err != nil {
		return err
	}
	history, pr, err := check.DemoFiles(*dir)
	if err != nil {
		return err
	}
	c, err := demoCompare(ctx, e.Stderr, history, pr)
	if err != nil {
		return err
	}
	return finishCheck(e, c, nil, *format, check.DefaultBranch, c.Candidate.Testbed)
}

// demoCompare runs check.Demo on a temporary embedded store, removed
// afterwards. What it does is narrated on w (stderr), so stdout is the
// report alone.
func demoCompare(ctx context.Context, w io.Writer, history []string, pr string) (*compare.Comparison, error) {
	tmp, err := os.MkdirTemp("", "perfgate-demo-")
	if err != nil {
		return nil, &model.InfraError{Op: "create a temporary store", Err: err}
	}
	defer os.RemoveAll(tmp)
	st, err := filestore.Open(tmp)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return check.Demo(ctx, st, w, history, pr)
}
