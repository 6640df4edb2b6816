// Package chromiumtest finds the headless Chromium that browser tests drive
// (the dashboard's in tracker/site, the PR comment's in tracker/report). It
// imports only the standard library and is meant for tests.
package chromiumtest

import (
	"os"
	"os/exec"
	"testing"
)

// Find returns a Chromium to drive: $PERFGATE_CHROMIUM, else chromium or
// chromium-browser on the PATH. Without one the test skips, and fails when
// PERFGATE_REQUIRE_CHROMIUM=1 (.ci/run installs Debian's chromium and sets it).
func Find(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PERFGATE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("PERFGATE_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("no chromium on the PATH and PERFGATE_REQUIRE_CHROMIUM=1")
	}
	t.Skip("no chromium on the PATH (set PERFGATE_REQUIRE_CHROMIUM=1 to fail instead)")
	return ""
}
