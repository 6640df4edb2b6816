package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// testBuildShRelease runs action/build.sh of the action's source at the
// tag version (origin's, as the release workflow left it, with
// action/SHA256SUMS) as the composite action's build step runs it
// (action.yml: PERFGATE_ACTION_REF is github.action_ref, GITHUB_SERVER_URL
// the web root it downloads from) against the release the fake published:
// it takes the release binary; PERFGATE_BUILD_FROM_SOURCE=1, a tampered
// asset, and a tampered asset with a SHA256SUMS to match, build from
// source, saying why. cudaAsset is the release's CUDA binary.
func testBuildShRelease(t *testing.T, s *releaseScratch, version, cudaAsset string) {
	src := s.checkout(t, version)
	_, err := exec.LookPath("nvidia-smi")
	gpuHost := err == nil // build.sh's test: it wants the CUDA binary on such a host
	published := s.fake.Releases("perfgate", "perfgate")
	var release, releaseSums []byte
	for _, r := range published {
		if r.GetTagName() == version && !r.GetDraft() {
			release, releaseSums = r.Files["perfgate-linux-amd64"], r.Files["SHA256SUMS"]
		}
	}
	if release == nil {
		t.Fatalf("no release %s to download", version)
	}
	run := func(t *testing.T, cuda string, extra ...string) (log string, bin []byte) {
		t.Helper()
		dir := t.TempDir()
		out := filepath.Join(dir, "github-output")
		cmd := exec.Command("bash", filepath.Join(src, "action", "build.sh"))
		//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
		cmd.Env = append(os.Environ(), "PATH="+filepath.Join(runtime.GOROOT(), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
			"PERFGATE_CUDA="+cuda, "PERFGATE_CUDA_INCLUDE=", "PERFGATE_ACTION_REF="+version, "PERFGATE_ACTION_REPOSITORY="+releaseRepo,
			"GITHUB_SERVER_URL="+s.fake.ServerURL, "GITHUB_ACTION_PATH="+src, "RUNNER_TEMP="+dir, "GITHUB_OUTPUT="+out,
			"PERFGATE_BUILD_FROM_SOURCE=", "PERFGATE_BUILD_CACHE="+filepath.Join(dir, "build-cache"))
		cmd.Env = append(cmd.Env, extra...)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("build.sh: %v\n%s", err, b)
		}
		gh, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		path, ok := strings.CutPrefix(strings.Split(string(gh), "\n")[0], "bin=")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT:\n%s", gh)
		}
		bin, err = os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := exec.Command(path, "version").Output(); err != nil || !strings.HasPrefix(string(v), "perfgate ") {
			t.Errorf("%s version: %q, %v", path, v, err)
		}
		return string(b), bin
	}

	usesRelease := func(t *testing.T, cuda string) {
		log, bin := run(t, cuda)
		if !bytes.Equal(bin, release) || !strings.Contains(log, "using the release binary perfgate-linux-amd64 of "+version+" ("+version+")") {
			t.Errorf("the step did not use the release binary:\n%s", log)
		}
	}
	t.Run("cuda false: the default binary", func(t *testing.T) { usesRelease(t, "false") })
	t.Run("cuda auto", func(t *testing.T) {
		if gpuHost {
			t.Skip("nvidia-smi is on PATH: build.sh takes " + cudaAsset + ", and whether it loads depends on this host's driver")
		}
		usesRelease(t, "auto")
	})
	t.Run("PERFGATE_BUILD_FROM_SOURCE", func(t *testing.T) {
		log, bin := run(t, "false", "PERFGATE_BUILD_FROM_SOURCE=1")
		if bytes.Equal(bin, release) || !strings.Contains(log, "PERFGATE_BUILD_FROM_SOURCE is set; building from source") {
			t.Errorf("not built from source, or without saying why:\n%s", log)
		}
	})
	t.Run("tampered asset", func(t *testing.T) {
		// A binary that would pass the version check: only the sum stops it.
		fake := []byte("#!/bin/sh\necho 'perfgate " + version + " (tampered)'\n")
		if err := s.fake.CorruptAsset("perfgate", "perfgate", version, "perfgate-linux-amd64", fake); err != nil {
			t.Fatal(err)
		}
		defer s.fake.CorruptAsset("perfgate", "perfgate", version, "perfgate-linux-amd64", release)
		for _, withSums := range []bool{false, true} {
			if withSums { // the release's SHA256SUMS replaced to match (issue 28, item 3)
				sums := fmt.Sprintf("%x  perfgate-linux-amd64\n", sha256.Sum256(fake))
				if err := s.fake.CorruptAsset("perfgate", "perfgate", version, "SHA256SUMS", []byte(sums)); err != nil {
					t.Fatal(err)
				}
				defer s.fake.CorruptAsset("perfgate", "perfgate", version, "SHA256SUMS", releaseSums)
			}
			log, bin := run(t, "false")
			if bytes.Equal(bin, fake) || bytes.Equal(bin, release) ||
				!strings.Contains(log, "the release binary perfgate-linux-amd64 of "+version+" does not match the digest in the action's source") {
				t.Errorf("SHA256SUMS replaced too: %v; the tampered binary was used, or the fallback did not say why:\n%s", withSums, log)
			}
		}
	})
}
