package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsActRecipe runs docs/action.md's "Try it locally" recipe as
// written, with bash from the repository root, the module proxy the local
// module cache (so nothing is downloaded) and TMPDIR in the test's folder: act
// runs the example workflow for a push, which builds perfgate from this
// checkout and records the run in the scratch repository's store (issue
// 30: the documented recipe failed offline, "Unable to clone").
func TestDocsActRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs act, which builds perfgate; skipped with -short")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "action.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- act-recipe:begin[^>]*-->\n```sh\n(.*?)```\n<!-- act-recipe:end -->").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/action.md has no act recipe block")
	}
	// The recipe's first line installs act into $(go env GOPATH)/bin, from
	// the module cache, where .ci/run installed it.
	actBinary(t)
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", string(m[1]))
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOPROXY=file://"+filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the recipe failed: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`recorded run \S+-r3 \(repo you/demo, branch main`).Match(out) || !strings.Contains(string(out), "Job succeeded") {
		t.Errorf("the act run recorded no run or did not succeed:\n%s", out)
	}
	// The example workflow runs 3 rounds, each recorded as a run of the job.
	runs, _ := filepath.Glob(filepath.Join(tmp, "tmp.*", ".store", "runs", "*.json"))
	if len(runs) != 3 {
		t.Errorf("the scratch repository's store holds %d runs, want the 3 rounds: %v", len(runs), runs)
	}
	if reports, _ := filepath.Glob(filepath.Join(tmp, "tmp.*", ".artifacts", "*", "*.md")); len(reports) == 0 {
		t.Error("no report uploaded to the artifacts folder")
	}
}
