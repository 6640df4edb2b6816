package main

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
)

// The release path end to end: nektos/act runs .github/workflows/release.yml,
// unchanged, for pushes of release tags in a scratch copy of this checkout
// whose origin is a local bare repository, against the fake GitHub; then
// action/build.sh, with the environment the composite action gives it,
// takes the published binary or falls back to a source build.
//
// What differs from a run on GitHub, and why:
//   - actions/checkout is act's local checkout (the scratch repository as it
//     is) and actions/setup-go the stand-in in testdata/act (the host's Go).
//   - The Test step tests one package (the variable
//     PERFGATE_RELEASE_TEST_PACKAGES): the whole suite already runs around
//     this test.
//   - The CUDA binary is built against the host's CUDA toolkit (the variable
//     PERFGATE_RELEASE_CUDA_ROOT), not in the nvidia/cuda 12.8 image: there is
//     no Docker daemon and no registry here; CI's is CUDA 11.8 (Debian's
//     nvidia-cuda-dev), the headers a release's image has. The arm64
//     binaries' cross tools are the host's (apt-get install
//     gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user: the step
//     installs them with sudo where missing) and their cuda.h the same
//     toolkit's. Without a toolkit the test checks that the job stops at the
//     CUDA step with nothing published, and skips the rest, saying so.

const releaseRepo = "perfgate/perfgate"

// A releaseRun is one act run of the release workflow.
type releaseRun struct {
	code      int
	jobResult string
	log       string
	steps     []releaseStep
	wall      time.Duration
}

type releaseStep struct {
	name, result string
	took         time.Duration
}

// A releaseScratch is the scratch repository, its bare origin and the fake.
type releaseScratch struct {
	act, root, repo, bare, cache, cudaRoot string
	fake                                   *fakegithub.Server
}

func (s *releaseScratch) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=perfgate", "-c", "user.email=perfgate@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newReleaseScratch copies this checkout's files (tracked, and untracked
// ones git does not ignore) into a new repository with one commit on main,
// pushed to a bare origin. A second remote, upstream, names the GitHub
// repository for act (--remote-name).
func newReleaseScratch(t *testing.T, act, cudaRoot string) *releaseScratch {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &releaseScratch{act: act, root: root, repo: filepath.Join(dir, "repo"), bare: filepath.Join(dir, "origin.git"),
		cache: filepath.Join(dir, "act-cache"), cudaRoot: cudaRoot, fake: fakegithub.New(t, e2eToken)}
	list := s.git(t, root, "ls-files", "-z", "-c", "-o", "--exclude-standard")
	for _, name := range strings.Split(strings.TrimRight(list, "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() { // deleted in the work tree, or a link
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(s.repo, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	s.git(t, dir, "init", "-q", "--bare", s.bare)
	s.git(t, s.repo, "init", "-q", "-b", "main")
	s.git(t, s.repo, "add", "-A")
	s.git(t, s.repo, "commit", "-q", "-m", "release candidate")
	s.git(t, s.repo, "remote", "add", "origin", s.bare)
	s.git(t, s.repo, "remote", "add", "upstream", "https://github.com/"+releaseRepo+".git")
	s.git(t, s.repo, "push", "-q", "origin", "main")
	return s
}

// tag commits a change (so each release is its own commit), tags it, pushes
// both as a maintainer does, and returns the commit.
func (s *releaseScratch) tag(t *testing.T, version string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.repo, "RELEASE"), []byte(version+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.git(t, s.repo, "add", "RELEASE")
	s.git(t, s.repo, "commit", "-q", "-m", "release "+version)
	s.git(t, s.repo, "tag", "-a", version, "-m", version)
	s.git(t, s.repo, "push", "-q", "origin", "main", version)
	return s.git(t, s.repo, "rev-parse", "HEAD")
}

// remoteTag returns the commit a tag of the bare origin points to.
func (s *releaseScratch) remoteTag(t *testing.T, tag string) string {
	t.Helper()
	return s.git(t, s.bare, "rev-parse", "refs/tags/"+tag+"^{commit}")
}

// checkDigestsCommitted checks that the release workflow moved the tag
// version from the pushed commit to a child of it that adds
// action/SHA256SUMS with the release's SHA256SUMS, and returns the child.
func (s *releaseScratch) checkDigestsCommitted(t *testing.T, version, pushed string, files map[string][]byte) string {
	t.Helper()
	got := s.remoteTag(t, version)
	if parent := s.git(t, s.bare, "rev-parse", got+"^"); parent != pushed {
		t.Errorf("origin's %s is %s, whose parent is %s; want a child of the pushed %s", version, got, parent, pushed)
	}
	if sums := s.git(t, s.bare, "show", got+":action/SHA256SUMS"); sums != strings.TrimSpace(string(files["SHA256SUMS"])) {
		t.Errorf("action/SHA256SUMS at %s:\n%s\nwant the release's SHA256SUMS:\n%s", version, sums, files["SHA256SUMS"])
	}
	return got
}

// checkout clones origin at tag into a new folder: the action's source as
// a workflow using the tag gets it (GITHUB_ACTION_PATH).
func (s *releaseScratch) checkout(t *testing.T, tag string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "action")
	s.git(t, filepath.Dir(dir), "clone", "-q", "--branch", tag, s.bare, dir)
	return dir
}

// run runs the release workflow under act for a push of the tag version.
func (s *releaseScratch) run(t *testing.T, version, sha string) releaseRun {
	t.Helper()
	event, err := json.Marshal(map[string]any{
		"ref": "refs/tags/" + version, "before": strings.Repeat("0", 40), "after": sha, "created": true, "deleted": false,
		"head_commit": map[string]any{"id": sha},
		"repository":  map[string]any{"name": "perfgate", "full_name": releaseRepo, "default_branch": "main", "owner": map[string]any{"login": "perfgate"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	payload := filepath.Join(filepath.Dir(s.repo), "push-"+version+".json")
	if err := os.WriteFile(payload, event, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"push", "--json", "-e", payload, "-W", filepath.Join(".github", "workflows", "release.yml"),
		"-P", "ubuntu-latest=-self-hosted", "--action-offline-mode", "--action-cache-path", s.cache, "--remote-name", "upstream",
		"--local-repository", "actions/setup-go@v5=" + filepath.Join(s.root, "cmd", "perfgate", "testdata", "act", "setup-go"),
		//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
		"--env", "GITHUB_API_URL=" + s.fake.URL, "--env", "PERFGATE_ACT_GOROOT=" + runtime.GOROOT(),
		"-s", "GITHUB_TOKEN=" + e2eToken,
		"--var", "PERFGATE_RELEASE_TEST_PACKAGES=./cmd/perfgate/internal/workflowlint",
		"--var", "PERFGATE_RELEASE_CUDA_ROOT=" + s.cudaRoot,
	}
	cmd := exec.Command(s.act, args...)
	cmd.Dir = s.repo
	var res releaseRun
	var log strings.Builder
	var stdout, stderr string
	res.code, res.wall, stdout, stderr = runActJSON(t, cmd, func(e actEntry) {
		switch {
		case e.JobResult != "":
			res.jobResult = e.JobResult
		case e.StepResult != "" && e.Stage == "Main":
			res.steps = append(res.steps, releaseStep{e.Step, e.StepResult, time.Duration(e.ExecTime)})
		case e.Raw:
			log.WriteString(e.Msg)
		case e.Command == "notice" || e.Command == "warning" || e.Command == "error":
			log.WriteString(e.RawCommand + "\n") // the workflow command as the step printed it
		}
	})
	res.log = log.String()
	if strings.Contains(res.log, e2eToken) || strings.Contains(stderr, e2eToken) {
		t.Errorf("the token reached the log unmasked")
	}
	var times []string
	for _, st := range res.steps {
		times = append(times, fmt.Sprintf("%s: %s %.1fs", st.name, st.result, st.took.Seconds()))
	}
	t.Logf("act push %s: exit %d, job %s in %.1fs; steps: %s", version, res.code, res.jobResult, res.wall.Seconds(), strings.Join(times, "; "))
	if res.jobResult == "" {
		t.Fatalf("act gave no job result (exit %d):\n%s\n%s", res.code, stdout, stderr)
	}
	return res
}

// hostCUDARoot returns the toolkit root the CUDA step builds against, and
// its CUDA_VERSION: $PERFGATE_RELEASE_CUDA_ROOT, else /usr/local/cuda, else
// /usr (Debian's nvidia-cuda-dev), the first with cuda.h and nvrtc.h.
func hostCUDARoot() (root string, version int) {
	for _, r := range []string{os.Getenv("PERFGATE_RELEASE_CUDA_ROOT"), "/usr/local/cuda", "/usr"} {
		if r == "" {
			continue
		}
		h, err := os.ReadFile(filepath.Join(r, "include", "cuda.h"))
		if _, nerr := os.Stat(filepath.Join(r, "include", "nvrtc.h")); err != nil || nerr != nil {
			continue
		}
		for _, line := range strings.Split(string(h), "\n") {
			if v, ok := strings.CutPrefix(line, "#define CUDA_VERSION "); ok {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err == nil {
					return r, n
				}
			}
		}
	}
	return "", 0
}

// checkRelease checks the published release tag: its assets are exactly
// want plus SHA256SUMS, whose sums are those of the files, and the
// default binary reports version. It returns the files.
func checkRelease(t *testing.T, fake *fakegithub.Server, tag, version string, want []string) map[string][]byte {
	t.Helper()
	var rel *fakegithub.Release
	for _, r := range fake.Releases("perfgate", "perfgate") {
		if r.GetTagName() == tag && !r.GetDraft() {
			if rel != nil {
				t.Fatalf("two published releases of %s", tag)
			}
			rel = &r
		}
	}
	if rel == nil {
		t.Fatalf("no published release %s", tag)
	}
	var names []string
	for n := range rel.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := append(slices.Clone(want), "SHA256SUMS"); !slices.Equal(names, slices.Sorted(slices.Values(want))) {
		t.Fatalf("release %s assets %v, want %v", tag, names, want)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(rel.Files["SHA256SUMS"])), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		sums[name] = sum
	}
	for _, n := range want {
		got := sha256.Sum256(rel.Files[n])
		if sums[n] != hex.EncodeToString(got[:]) {
			t.Errorf("release %s: SHA256SUMS says %s for %s, the file's sum is %x", tag, sums[n], n, got)
		}
	}
	if len(sums) != len(want) {
		t.Errorf("release %s: SHA256SUMS lists %d files, want %d", tag, len(sums), len(want))
	}
	bin := filepath.Join(t.TempDir(), "perfgate")
	if err := os.WriteFile(bin, rel.Files["perfgate-linux-amd64"], 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "version").Output(); err != nil || !strings.HasPrefix(string(out), "perfgate "+version) {
		t.Errorf("release %s: perfgate-linux-amd64 version: %q, %v; want perfgate %s", tag, out, err, version)
	}
	return rel.Files
}

// elfNeeds reports whether the ELF file b needs a library whose name starts
// with prefix.
func elfNeeds(t *testing.T, b []byte, prefix string) bool {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(libs, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

func TestReleaseUnderAct(t *testing.T) {
	if testing.Short() {
		t.Skip("runs act, which builds perfgate twice per release; skipped with -short")
	}
	act := actBinary(t)
	cudaRoot, cudaVersion := hostCUDARoot()
	if cudaRoot == "" {
		cudaRoot = t.TempDir() // no toolkit: the CUDA step must stop the release
	}
	s := newReleaseScratch(t, act, cudaRoot)
	sha := s.tag(t, "v1.2.3")
	res := s.run(t, "v1.2.3", sha)

	if cudaVersion == 0 {
		if res.jobResult != "failure" || !strings.Contains(res.log, "has no include/cuda.h and include/nvrtc.h") {
			t.Fatalf("without a CUDA toolkit: job %s, want a failure at the CUDA step\n%s", res.jobResult, res.log)
		}
		if rs := s.fake.Releases("perfgate", "perfgate"); len(rs) != 0 {
			t.Errorf("a failed CUDA build published %d releases", len(rs))
		}
		t.Skip("no CUDA toolkit (cuda.h and nvrtc.h in $PERFGATE_RELEASE_CUDA_ROOT, /usr/local/cuda or /usr): " +
			"checked that the job stops at the CUDA build with nothing published; the CUDA build, publishing, " +
			"the tag move and the action's download did not run")
	}
	const cudaAsset = "perfgate-linux-amd64-cuda"
	assets := []string{"perfgate-linux-amd64", cudaAsset, "perfgate-linux-arm64", "perfgate-linux-arm64-cuda"}

	t.Run("v1.2.3 publishes the binaries and creates v1", func(t *testing.T) {
		if res.code != 0 || res.jobResult != "success" {
			t.Fatalf("exit %d, job %s\n%s", res.code, res.jobResult, res.log)
		}
		if !strings.Contains(res.log, "ok  \tgithub.com/perfgate/perfgate/cmd/perfgate/internal/workflowlint") {
			t.Errorf("the Test step did not run the workflowlint tests:\n%s", res.log)
		}
		files := checkRelease(t, s.fake, "v1.2.3", "v1.2.3", assets)
		want := fmt.Sprintf("against %s/include/cuda.h (CUDA_VERSION %d)", cudaRoot, cudaVersion)
		if !strings.Contains(res.log, want) {
			t.Errorf("the CUDA step's log lacks %q:\n%s", want, res.log)
		}
		// NVRTC is loaded at run time (kernels/nvrtc_cuda.go): each CUDA binary
		// links the driver's libcuda.so.1 alone, so it runs on CUDA 12 and 13
		// hosts; the default binaries link nothing of CUDA.
		for name, wantArch := range map[string]elf.Machine{"perfgate-linux-amd64": elf.EM_X86_64, cudaAsset: elf.EM_X86_64,
			"perfgate-linux-arm64": elf.EM_AARCH64, "perfgate-linux-arm64-cuda": elf.EM_AARCH64} {
			f, err := elf.NewFile(bytes.NewReader(files[name]))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if f.Machine != wantArch {
				t.Errorf("%s is for %s, want %s", name, f.Machine, wantArch)
			}
			cuda := strings.HasSuffix(name, "-cuda")
			if got := elfNeeds(t, files[name], "libcuda.so.1"); got != cuda || elfNeeds(t, files[name], "libnvrtc") {
				t.Errorf("%s: links libcuda.so.1: %v, want %v; or links libnvrtc", name, got, cuda)
			}
		}
		for _, want := range []string{"cross-arm64: cmdpath ran under qemu-aarch64: ", "cross-arm64: built dist/perfgate-linux-arm64-cuda against"} {
			if !strings.Contains(res.log, want) {
				t.Errorf("the arm64 step's log lacks %q:\n%s", want, res.log)
			}
		}
		t.Logf("%s and perfgate-linux-arm64-cuda: built with -tags cuda against %s (CUDA_VERSION %d), link libcuda.so.1 alone; "+
			"perfgate-linux-arm64 ran cmdpath under qemu-aarch64; a release on GitHub builds the CUDA binaries against the nvidia/cuda:11.8.0 image's headers instead (no Docker here)",
			cudaAsset, cudaRoot, cudaVersion)
		released := s.checkDigestsCommitted(t, "v1.2.3", sha, files)
		if got := s.remoteTag(t, "v1"); got != released {
			t.Errorf("origin's v1 is %s, want v1.2.3's %s", got, released)
		}
		v1 := checkRelease(t, s.fake, "v1", "v1.2.3", assets)
		for _, n := range assets {
			if !bytes.Equal(v1[n], files[n]) {
				t.Errorf("release v1's %s differs from v1.2.3's", n)
			}
		}
	})

	t.Run("the action uses the release binary of its ref", func(t *testing.T) {
		testBuildShRelease(t, s, "v1.2.3", cudaAsset)
	})

	var sha4 string // v1.2.4's commit, once released
	t.Run("v1.2.4 moves v1 and refreshes its release", func(t *testing.T) {
		sha2 := s.tag(t, "v1.2.4")
		res := s.run(t, "v1.2.4", sha2)
		if res.code != 0 || res.jobResult != "success" {
			t.Fatalf("exit %d, job %s\n%s", res.code, res.jobResult, res.log)
		}
		files := checkRelease(t, s.fake, "v1.2.4", "v1.2.4", assets)
		released := s.checkDigestsCommitted(t, "v1.2.4", sha2, files)
		if got := s.remoteTag(t, "v1"); got != released {
			t.Errorf("origin's v1 is %s, want %s (v1.2.4)", got, released)
		}
		v1 := checkRelease(t, s.fake, "v1", "v1.2.4", assets)
		for _, n := range assets {
			if !bytes.Equal(v1[n], files[n]) {
				t.Errorf("release v1's %s is not v1.2.4's", n)
			}
		}
		if got := s.remoteTag(t, "v1.2.3"); got == released {
			t.Error("v1.2.3 moved")
		}
		checkRelease(t, s.fake, "v1.2.3", "v1.2.3", assets)
		sha4 = released
	})

	t.Run("v1.2.2 after v1.2.4 leaves v1 alone", func(t *testing.T) {
		if sha4 == "" {
			t.Skip("v1.2.4 did not release")
		}
		sha := s.tag(t, "v1.2.2")
		res := s.run(t, "v1.2.2", sha)
		if res.code != 0 || res.jobResult != "success" || !strings.Contains(res.log, "::notice title=release::v1.2.2 is not the highest v1 tag (v1.2.4): v1 stays where it is") {
			t.Fatalf("exit %d, job %s, want success saying v1 stays\n%s", res.code, res.jobResult, res.log)
		}
		s.checkDigestsCommitted(t, "v1.2.2", sha, checkRelease(t, s.fake, "v1.2.2", "v1.2.2", assets))
		if got := s.remoteTag(t, "v1"); got != sha4 {
			t.Errorf("origin's v1 is %s, want %s (v1.2.4)", got, sha4)
		}
		checkRelease(t, s.fake, "v1", "v1.2.4", assets)
		for _, r := range s.fake.Requests() {
			if r.Operation == "repos/create-release" && strings.Contains(string(r.Body), `"tag_name":"v1.2.2"`) &&
				!strings.Contains(string(r.Body), `"make_latest":"false"`) {
				t.Errorf("v1.2.2 was created as the latest release: %s", r.Body)
			}
		}
	})
}
