package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseCommitSums runs .github/release/commit-sums.sh, the release
// workflow's step that commits the digests of the binaries it built, in a
// checkout of a pushed tag: the tag, at origin too, moves to a child of the
// tagged commit that adds action/SHA256SUMS with dist/SHA256SUMS, which is
// where action/build.sh reads the digests it trusts (issue 28, item 3). A
// dist/SHA256SUMS without the default binary's digest stops the release.
// TestReleaseUnderAct runs it inside the workflow, where a CUDA toolkit is
// installed.
func TestReleaseCommitSums(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", ".github", "release", "commit-sums.sh"))
	if err != nil {
		t.Fatal(err)
	}
	s := &releaseScratch{}
	dir := t.TempDir()
	bare, repo := filepath.Join(dir, "origin.git"), filepath.Join(dir, "repo")
	s.git(t, dir, "init", "-q", "--bare", bare)
	s.git(t, dir, "init", "-q", "-b", "main", repo)
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.git(t, repo, "add", "go.mod")
	s.git(t, repo, "commit", "-q", "-m", "source")
	s.git(t, repo, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
	s.git(t, repo, "remote", "add", "origin", bare)
	s.git(t, repo, "push", "-q", "origin", "main", "v1.2.3")
	pushed := s.git(t, repo, "rev-parse", "HEAD")
	s.git(t, repo, "checkout", "-q", "--detach", "v1.2.3") // as actions/checkout leaves a tag push

	run := func(sums string) (string, error) {
		if err := os.MkdirAll(filepath.Join(repo, "dist"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "dist", "SHA256SUMS"), []byte(sums), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", script)
		cmd.Dir, cmd.Env = repo, append(os.Environ(), "VERSION=v1.2.3")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("0123  perfgate-linux-amd64-cuda12\n"); err == nil || !strings.Contains(out, "no digest of perfgate-linux-amd64") {
		t.Errorf("without the default binary's digest: %v\n%s", err, out)
	}
	sums := strings.Repeat("a", 64) + "  perfgate-linux-amd64\n" + strings.Repeat("b", 64) + "  perfgate-linux-amd64-cuda12\n"
	if out, err := run(sums); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, where := range []string{repo, bare} {
		tagged := s.git(t, where, "rev-parse", "refs/tags/v1.2.3^{commit}")
		if parent := s.git(t, where, "rev-parse", tagged+"^"); parent != pushed {
			t.Errorf("%s: v1.2.3 is %s, parent %s; want a child of %s", where, tagged, parent, pushed)
		}
		if got := s.git(t, where, "show", tagged+":action/SHA256SUMS"); got+"\n" != sums {
			t.Errorf("%s: action/SHA256SUMS at v1.2.3 is %q, want %q", where, got, sums)
		}
	}
}
