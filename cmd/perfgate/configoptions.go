package main

import (
	"context"
	"flag"
	"strings"

	"github.com/perfgate/perfgate/tracker/config"
)

// flagsGiven returns the names of the flags set on the command line.
func flagsGiven(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// explicitSettings returns the names of the flags set on the command line or
// through their environment variable (envs maps flag names to variables):
// both are the user's explicit choice and win over a config file.
func explicitSettings(fset *flag.FlagSet, e *env, envs map[string]string) map[string]bool {
	set := flagsGiven(fset)
	for name, key := range envs {
		if strings.TrimSpace(e.Getenv(key)) != "" {
			set[name] = true
		}
	}
	return set
}

// loadOptionalConfig loads path, or, when path is empty, the
// .perfgate.yml config.Find finds, if any (nil: none).
func loadOptionalConfig(ctx context.Context, path string) (*config.Config, error) {
	if path != "" {
		return config.Load(path)
	}
	return config.LoadFound(ctx, "")
}
