package runner

import (
	"context"
	"os/exec"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

// ChildVersion is the version of the spec (internal/childspec) a Child
// travels as: parent and child are one binary, so a mismatch is a bug.
const ChildVersion = 1

// A Child is one perfgate run process that a run starts: a suite of a
// round or of a confirmation, or a GPU's worker of --devices. Settings are
// what that perfgate run does, as the user's flags would say it; a zero
// field is the child's own default, as for a flag not given (Settings'
// fields travel without code: internal/childspec). Meta is the run block
// the child writes, so it needs neither git nor the GitHub environment
// (the parent replaces the block anyway).
type Child struct {
	Settings
	Meta runmeta.Given
}

// A Starter returns the command that runs the perfgate process c, and the
// perfgate command line that c stands for, less its output file and run
// block, for messages. cmd/perfgate provides it: how a child reads c, and
// how a setting is spelled, are the command's.
type Starter func(ctx context.Context, c Child) (cmd *exec.Cmd, line string, err error)

// childMeta is the run block a child of the job whose run block is run
// writes: the job's, under its own ID.
func childMeta(run model.Run) runmeta.Given {
	return runmeta.Given{ID: run.ID + "-part", Repo: run.Repo, Commit: run.Commit, Branch: run.Branch,
		Event: run.Event, Testbed: run.Testbed, PR: run.PR}
}

// builtinChild is a child that runs the built-in suites names of o as
// o.Kernel selects and tunes their benchmarks, skipping those unchanged
// against o.SkipUnchangedAgainst. A setting of o.Given that this does
// not name (a field added to Settings) reaches the child as given.
func builtinChild(o Options, names []string) Child {
	s := o.Given
	// What only the parent does: the child runs these suites once, here.
	s.Config, s.Devices, s.Out, s.List, s.Rounds, s.SkipPrepare, s.Strict = "", "", "", false, 0, false, false
	k := o.Kernel
	s.Suites, s.Size, s.Ops, s.DTypes = strings.Join(names, ","), k.Size, strings.Join(k.Ops, ","), strings.Join(k.DTypes, ",")
	s.MaxTime, s.Fast, s.Pace, s.SkipUnchanged, s.Filter = k.MaxTime, k.Fast, k.Pace, o.SkipUnchangedAgainst, ""
	s.Reference = o.Reference // settled by the parent's probe: torch or none, never auto again
	if k.Filter != nil {
		s.Filter = k.Filter.String()
	}
	return Child{Settings: s}
}
