package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	tests := []struct {
		name, stamped string
		bi            *debug.BuildInfo
		ok            bool
		want          string
	}{
		{"stamped by -ldflags -X", "v1.2.3", vcs("0123456789abcdef", "false"), true, "v1.2.3"},
		{"go install at a version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, true, "v0.4.0"},
		{"a clean checkout", "", vcs("0123456789abcdef", "false"), true, "devel-0123456789ab"},
		{"a modified checkout", "", vcs("0123456789abcdef", "true"), true, "devel-0123456789ab-dirty"},
		{"no VCS information", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{"no build information", "", nil, false, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := version(tt.stamped, tt.bi, tt.ok); got != tt.want {
				t.Errorf("version = %q, want %q", got, tt.want)
			}
		})
	}
	if Version("") == "" {
		t.Error(`Version("") is empty`)
	}
}
