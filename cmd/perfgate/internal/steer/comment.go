package steer

import (
	"context"
	"fmt"
	"regexp"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

// A Next is what perfgate action goes on with after a /perfgate run: the
// pull-request check of the head checked out here, and its config.
type Next struct {
	Plan   *action.Plan
	Config *config.Config
}

// Comment answers an issue_comment (a KindSteer or KindIgnore plan in
// opts): a comment that is no command is ignored, a command is answered by
// action.Steer. For a /perfgate run it checks the head the API named out
// here (after the permission check, never before), makes the job's
// environment that of a pull_request event of that head, reads the
// head's config and the run's filter into o, and returns the check to run.
func Comment(ctx context.Context, e *cli.Env, o *action.Settings, opts action.RunOptions) (*Next, error) {
	if opts.Plan.Kind == action.KindIgnore {
		fmt.Fprintf(e.Stderr, "perfgate: nothing to do: %s\n", opts.Plan.Why)
		return nil, nil
	}
	if cmd := opts.Plan.Command; cmd.Verb == "run" && cmd.Err == "" {
		if len(o.ResultFiles) > 0 {
			cmd.Err = "run measures the suites of .perfgate.yml, and this workflow judges results-file inputs instead"
		} else if _, err := regexp.Compile(cmd.Filter); err != nil {
			cmd.Err = fmt.Sprintf("the filter is not a regular expression: %v", err)
		}
	}
	out, err := action.Steer(ctx, opts)
	if out.Run == nil || err != nil {
		return nil, err
	}
	if err := runmeta.CheckoutHead(ctx, "", out.Run.PR, out.Run.HeadSHA); err != nil {
		return nil, err
	}
	fmt.Fprintf(e.Stderr, "perfgate: /perfgate run: checked out #%d's head %s (%s)\n", out.Run.PR, out.Run.HeadSHA, out.Run.Branch)
	e.Getenv = action.CheckEnv(e.Getenv, out.Run)
	if f := opts.Plan.Command.Filter; f != "" {
		o.Filter = regexp.MustCompile(f)
	}
	cfg, err := config.LoadOptional(ctx, o.Config, len(o.ResultFiles) > 0)
	for _, w := range cfg.Warnings() {
		e.Warn(w)
	}
	o.UseConfig(cfg)
	return &Next{Plan: out.Run, Config: cfg}, err
}
