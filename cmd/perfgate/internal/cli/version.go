package cli

import "runtime/debug"

// Version returns the program's version: stamped (the -ldflags "-X
// main.version=v1.2.3" value, "" when not set), else the module version,
// else the VCS revision the binary was built from.
func Version(stamped string) string {
	bi, ok := debug.ReadBuildInfo()
	return version(stamped, bi, ok)
}

// version is Version with the build information given.
func version(stamped string, bi *debug.BuildInfo, ok bool) string {
	if stamped != "" {
		return stamped
	}
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
