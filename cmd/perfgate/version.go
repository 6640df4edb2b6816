package main

import (
	"runtime/debug"

	"github.com/perfgate/perfgate/kernels"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the module build information.
var version = ""

// buildVersion returns perfgate's version: the -X value, else the module
// version, else the VCS revision the binary was built from.
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

// cudaStatus says whether this binary can run the GPU suites.
func cudaStatus() string {
	if kernels.CUDA {
		return "built with CUDA"
	}
	return "built without CUDA (-tags cuda)"
}
