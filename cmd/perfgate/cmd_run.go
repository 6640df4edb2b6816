package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

func init() {
	commands.Register(&cli.Command{Name: "run", Run: runRun})
}

func runRun(ctx context.Context, args []string, e *cli.Env) error {
	s, meta, given, err := parseRunFlags(args, e)
	if err != nil {
		return err
	}
	if note := s.Defaults(ctx, given["size"] || e.Getenv(runner.RunSetting("size").Env) != ""); note != "" && !s.List {
		fmt.Fprintln(e.Stderr, "perfgate: "+note)
	}
	o, err := s.Options(listDevices)
	if err != nil {
		return err
	}
	paths, err := s.OutPaths()
	if err != nil {
		return err
	}
	if s.List {
		return runner.List(e.Stdout, o)
	}
	o.Meta = func() (model.Run, error) { return meta.resolve(ctx, e, time.Now()) }
	r := newRunner(e)
	rs, err := r.Run(ctx, o)
	if err != nil {
		return err
	}
	return r.WriteRounds(e.Stdout, paths, rs)
}

// parseRunFlags parses perfgate run's flags, or the spec of a child
// (--spec), into its settings and run metadata, and returns the flags given.
func parseRunFlags(args []string, e *cli.Env) (runner.Settings, *runMetaFlags, map[string]bool, error) {
	s := runner.Settings{CacheDir: e.Getenv(cacheEnv), Worker: workerCommand()}
	meta := &runMetaFlags{}
	fs := cli.NewFlagSet(e, "run", "[--suite NAME[,NAME]] [--filter REGEX] [--op NAME[,NAME]] [--size ci|small|medium|large] [--fast] [--dtype "+strings.Join(kernels.DTypes, ",")+"] [--max-time "+measure.DefaultMaxTime.String()+"] [--rounds R | --devices all|0,1] [--out results.json|DIR/|'results-{round}.json'] | --config .perfgate.yml [--suite NAME] [--rounds R] | --list")
	registerRunFlags(fs, e, &s)
	meta.register(fs, e)
	spec := fs.String("spec", "", "internal: the `JSON` of what the perfgate process that starts this one (rounds, --devices) asks it to run, instead of the other flags")
	if err := cli.ParseFlags(fs, args); err != nil {
		return s, nil, nil, err
	}
	if fs.NArg() > 0 {
		return s, nil, nil, cli.UsageErrorf("run: unexpected argument %q (suites go in --suite)", fs.Arg(0))
	}
	given := cli.FlagsGiven(fs)
	return s, meta, given, readChildSpec(*spec, given, &s, meta)
}

// readChildSpec reads the spec a parent perfgate process handed this one
// (runner.Child, startChild) over the defaults in s and m, as flags given
// over their defaults. No spec: nothing to do.
func readChildSpec(spec string, given map[string]bool, s *runner.Settings, m *runMetaFlags) error {
	if spec == "" {
		return nil
	}
	if len(given) > 1 {
		return cli.UsageErrorf("run: --spec takes no other flags")
	}
	c := runner.Child{Settings: *s, Meta: runmeta.Given{ID: m.id, Repo: m.repo, Commit: m.commit, Branch: m.branch, Event: m.event, Testbed: m.testbed, Group: m.group, PR: m.pr}}
	if err := childspec.Decode([]byte(spec), runner.ChildVersion, &c); err != nil {
		return cli.UsageErrorf("run: --spec: %w", err)
	}
	g := c.Meta
	*s = c.Settings
	m.id, m.repo, m.commit, m.branch, m.event, m.testbed, m.group, m.pr = g.ID, g.Repo, g.Commit, g.Branch, g.Event, g.Testbed, g.Group, g.PR
	return nil
}
