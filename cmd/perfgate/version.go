package main

import "github.com/perfgate/perfgate/cmd/perfgate/internal/cli"

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the module build information (cli.Version).
var version = ""

// buildVersion returns perfgate's version.
func buildVersion() string { return cli.Version(version) }
