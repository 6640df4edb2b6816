package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cliflag"
)

// NewFlagSet makes a command's flag set. The usage text, printed only when
// asked for (--help), goes to standard output, so "perfgate run --help |
// less" shows it; parse errors come back as errors (never os.Exit) that
// Code prints on standard error.
func NewFlagSet(e *Env, name, usageLine string) *flag.FlagSet {
	fs := flag.NewFlagSet("perfgate "+name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.Stdout, "usage: perfgate %s %s\n\nflags:\n", name, usageLine)
		cliflag.PrintDefaults(e.Stdout, fs)
	}
	return fs
}

// ParseFlags parses args into fs: flags may come before, between and after
// the arguments ("ingest --format gotest bench.txt --out r.json"), "--" ends
// them, and fs.Args() holds the rest. -h prints the usage (ErrHelp); a bad
// flag is one line with a hint, not the whole usage (exit 2).
func ParseFlags(fs *flag.FlagSet, args []string) error {
	err := cliflag.Parse(fs, args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, cliflag.ErrHelp):
		fs.Usage()
		return ErrHelp
	}
	return UsageErrorf("%s: %w\nRun '%s --help' for its flags.", strings.TrimPrefix(fs.Name(), "perfgate "), err, fs.Name())
}

// ParseFlagsAndFiles parses args into fs and returns the arguments that are
// not flags ("check --candidate pr/*.json --threshold 5").
func ParseFlagsAndFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := ParseFlags(fs, args); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// FlagsGiven returns the names of the flags set on the command line.
func FlagsGiven(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// ExplicitSettings returns the names of the flags set on the command line
// or through their environment variable (envs maps flag names to
// variables): both are the user's explicit choice and win over a config
// file.
func ExplicitSettings(fs *flag.FlagSet, e *Env, envs map[string]string) map[string]bool {
	set := FlagsGiven(fs)
	for name, key := range envs {
		if strings.TrimSpace(e.Getenv(key)) != "" {
			set[name] = true
		}
	}
	return set
}

// CheckChoice is a usage error naming flagName unless v is one of allowed.
func CheckChoice(flagName, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return UsageErrorf("%s: must be one of %s, got %q", flagName, strings.Join(allowed, ", "), v)
}

// Files is a repeatable flag collecting file names.
type Files []string

func (l *Files) String() string { return strings.Join(*l, ",") }

// Set adds a file; an empty name is a usage error.
func (l *Files) Set(v string) error {
	if v == "" {
		return UsageErrorf("empty file name")
	}
	*l = append(*l, v)
	return nil
}

// OldNew returns the files of a comparison's two sides: OLD NEW as the
// arguments (benchstat's form), or the files of --baseline and
// --candidate, not both. Errors are usage errors naming what is missing.
func OldNew(args []string, base, cand Files) (Files, Files, error) {
	switch {
	case len(args) > 0 && (len(base) > 0 || len(cand) > 0):
		return nil, nil, UsageErrorf("unexpected argument %q: give OLD NEW, or --baseline and --candidate, not both", args[0])
	case len(args) == 2:
		return Files{args[0]}, Files{args[1]}, nil
	case len(args) == 1:
		return nil, nil, UsageErrorf("%s and what? Give OLD NEW (two files), or --baseline and --candidate", args[0])
	case len(args) > 2:
		return nil, nil, UsageErrorf("unexpected argument %q: give OLD NEW (pool more runs with --baseline and --candidate)", args[2])
	case len(base) == 0:
		return nil, nil, UsageErrorf("--baseline: at least one baseline file is required (or give OLD NEW)")
	case len(cand) == 0:
		return nil, nil, UsageErrorf("--candidate: at least one candidate file is required")
	}
	return base, cand, nil
}

// SpellFlag spells the flag of the setting name as users type it: the one
// spelling of perfgate's flags, which messages of the libraries get
// through model.SpellFlag.
func SpellFlag(name string) string { return "--" + name }
