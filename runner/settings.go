package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Settings are perfgate run's flags as the user gives them, before they
// are checked: lists as comma-separated text.
type Settings struct {
	Suites, Filter, Ops, DTypes, Size   string
	Pace, Reference                     string
	Out, Config, Devices, SkipUnchanged string
	List, Fast, SkipPrepare, Strict     bool
	Rounds                              int
	MaxTime                             time.Duration
	CacheDir                            string   // kernels' build cache (PERFGATE_CACHE)
	Worker                              []string // the command line of a sharing-suite worker
}

// Defaults fills in what a run runs when neither Suites nor Config names
// it: the suites of the .perfgate.yml config.Find finds (not to List),
// else the default built-in suites at size ci unless sizeGiven. It returns
// a note saying which, or "".
func (s *Settings) Defaults(ctx context.Context, sizeGiven bool) string {
	if s.Suites != "" || s.Config != "" {
		return ""
	}
	if path, found := config.Find(ctx, ""); found && !s.List {
		s.Config = path
		return "no --suite: running the suites of " + path
	}
	if !s.List { // --list lists every suite
		s.Suites = strings.Join(kernels.DefaultSuites(), ",")
	}
	if !sizeGiven {
		s.Size = kernels.SizeCI
	}
	return fmt.Sprintf("no --suite: running the default built-in suites (%s) at size %s", s.Suites, s.Size)
}

// OutPaths checks Rounds and returns the files Out names (Paths).
func (s Settings) OutPaths() ([]string, error) {
	if s.Rounds < 1 || s.Rounds > MaxRounds {
		return nil, inputErr("--rounds: must be from 1 to %d, got %d", MaxRounds, s.Rounds)
	}
	if s.SkipPrepare && s.Config == "" {
		return nil, inputErr("--skip-prepare: applies to --config runs only")
	}
	return Paths(s.Out, s.Rounds)
}

// Options checks s and turns it into a run's options, all but the run
// block (Options.Meta). devices lists the GPUs --devices chooses from.
func (s Settings) Options(devices func() ([]kernels.Device, error)) (Options, error) {
	o := Options{Suites: splitList(s.Suites), Rounds: s.Rounds, SkipPrepare: s.SkipPrepare, Strict: s.Strict, SkipUnchangedAgainst: s.SkipUnchanged,
		Reference: s.Reference,
		Kernel: kernels.Options{Size: s.Size, Fast: s.Fast, MaxTime: s.MaxTime, Pace: s.Pace, CacheDir: s.CacheDir,
			Worker: s.Worker, Ops: splitList(s.Ops), DTypes: splitList(s.DTypes)}}
	if s.Filter != "" {
		re, err := regexp.Compile(s.Filter)
		if err != nil {
			return o, inputErr("--filter: %v", err)
		}
		o.Kernel.Filter = re
	}
	if s.Reference != "" && !slices.Contains(ReferenceValues, s.Reference) {
		return o, inputErr("--reference: %q is not one of %s", s.Reference, strings.Join(ReferenceValues, ", "))
	}
	var oe *kernels.OptionError
	if err := kernels.ValidateOptions(o.Kernel); errors.As(err, &oe) {
		return o, inputErr("--%s: %s", oe.Option, oe.Msg)
	} else if err != nil {
		return o, &model.InputError{Msg: err.Error(), Err: err}
	}
	switch {
	case s.List && s.Config != "": // list the config's suites, not the built-in ones
		cfg, err := config.Load(s.Config)
		if err != nil {
			return o, err
		}
		o.Config = cfg
	case s.List:
	case s.Config != "":
		if s.Filter != "" || s.Ops != "" || s.DTypes != "" || s.MaxTime != 0 {
			return o, inputErr("--config: --filter, --op, --dtype and --max-time apply to built-in suites; set them per suite in %s", s.Config)
		}
		if s.Reference != "" {
			return o, inputErr("--config: --reference applies to built-in suites; a python: suite of %s names its own reference", s.Config)
		}
		cfg, err := config.Load(s.Config)
		if err != nil {
			return o, err
		}
		o.Config = cfg
	case s.Devices != "":
		if s.Rounds > 1 {
			return o, inputErr("--devices: not with --rounds (run the rounds on each GPU in turn)")
		}
		all, err := devices()
		if err != nil {
			return o, err
		}
		if o.Devices, err = ParseDevices(s.Devices, all); err != nil {
			return o, err
		}
	}
	return o, nil
}

// List writes the built-in suites o.Suites names (all when none) with the
// benchmarks o.Kernel selects (and, with o.Reference, their PyTorch
// references), or, with o.Config, the config's suites (listConfig).
func List(w io.Writer, o Options) error {
	if o.Config != nil {
		return listConfig(w, o.Config, o.Suites)
	}
	if len(o.Suites) > 0 {
		if err := CheckSuites(o.Suites); err != nil {
			return err
		}
	}
	for _, s := range kernels.ListFor(o.Kernel) {
		if len(o.Suites) == 0 || slices.Contains(o.Suites, s.Name) {
			fmt.Fprintf(w, "%s: %s\n", s.Name, s.Description)
			for _, b := range s.Benchmarks {
				fmt.Fprintf(w, "  %s\n", b)
			}
			if o.Reference != "" {
				listReferences(w, s.Name, s.Benchmarks)
			}
		}
	}
	return nil
}

// WriteRounds writes one results file per round to paths (OutPaths), or
// the one document to stdout when its path is "" or "-".
func (r *Runner) WriteRounds(stdout io.Writer, paths []string, rs []*model.Results) error {
	for i, res := range rs {
		if paths[i] == "" || paths[i] == "-" {
			if err := resultsjson.Encode(stdout, res); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			return &model.InfraError{Op: "create " + filepath.Dir(paths[i]), Err: err}
		}
		if err := resultsjson.WriteFile(paths[i], res); err != nil {
			return &model.InfraError{Op: "write " + paths[i], Err: err}
		}
		r.logf("perfgate: wrote %d benchmarks to %s\n", len(res.Benchmarks), paths[i])
	}
	return nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
