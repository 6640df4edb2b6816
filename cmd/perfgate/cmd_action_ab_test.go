package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// abActionConfig's suite prints the samples committed in samples.json, so
// the two sides differ exactly by what the head commit changed.
const abActionConfig = `suites:
  - name: lat
    command:
      run: cat samples.json
      format: json-samples
      unit: us
`

// makeActionABRepo builds a repository whose head scales the samples of
// its base by factor, and a pull_request payload whose base.sha is the base
// commit. It returns the repository and the payload's path.
func makeActionABRepo(t *testing.T, factor float64) (repo, event string) {
	t.Helper()
	repo = t.TempDir()
	samples := func(f float64) string {
		var s []string
		for i := range 6 {
			s = append(s, fmt.Sprintf("%.2f", f*(99+float64(i%3)+0.1*float64(i))))
		}
		return `{"kernel/n=1024": [` + strings.Join(s, ", ") + "]}\n"
	}
	abWriteFile(t, filepath.Join(repo, ".perfgate.yml"), abActionConfig)
	abWriteFile(t, filepath.Join(repo, "samples.json"), samples(1))
	abGit(t, repo, "init", "-q", "-b", "master")
	abGit(t, repo, "add", ".")
	abGit(t, repo, "commit", "-q", "-m", "base")
	base := abGitOut(t, repo, "rev-parse", "HEAD")
	abWriteFile(t, filepath.Join(repo, "samples.json"), samples(factor))
	abWriteFile(t, filepath.Join(repo, "README"), "the pull request\n")
	abGit(t, repo, "add", ".")
	abGit(t, repo, "commit", "-q", "-m", "head")

	var payload map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join("..", "..", "tracker", "action", "testdata", "events", "pull_request.opened.json"))), &payload); err != nil {
		t.Fatal(err)
	}
	payload["pull_request"].(map[string]any)["base"].(map[string]any)["sha"] = base
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	event = filepath.Join(t.TempDir(), "event.json")
	abWriteFile(t, event, string(b))
	return repo, event
}

// TestActionInterleaved runs the action with baseline: interleaved on a pull
// request: both sides run here, the report says interleaved, the comment
// and the status are set as with baseline: history, and the head is recorded
// as a pull-request run, never as a baseline.
func TestActionInterleaved(t *testing.T) {
	if testing.Short() {
		t.Skip("checks out both sides of a scratch repository and runs their rounds in processes, per case (24 s under -race at load 5-11); .ci/run runs it without -race")
	}
	tests := []struct {
		name            string
		factor          float64
		code            int
		verdict, status string
		confirmRounds   int
	}{
		{"25% slower head: regression, confirmed by 3 more A/B rounds", 1.25, 1, "fail", "failure", 3},
		{"unchanged head: pass", 1, 0, "pass", "success", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, event := makeActionABRepo(t, tt.factor)
			store := filepath.Join(t.TempDir(), "store")
			fake := fakegithub.New(t, "ghs_tok")
			vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{
				"config": filepath.Join(repo, ".perfgate.yml"), "baseline": "interleaved", "rounds": "3",
				"github-token": "ghs_tok", "store-dir": store})
			vars["GITHUB_EVENT_PATH"], vars["GITHUB_API_URL"], vars["PERFGATE_TESTBED"] = event, fake.URL, "gpu-runner-1"
			vars["GITHUB_HEAD_REF"] = "changes"
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			out := outputs(t, readFile(t, vars["GITHUB_OUTPUT"]))
			if out["verdict"] != tt.verdict {
				t.Errorf("verdict output %q, want %q", out["verdict"], tt.verdict)
			}
			summary := readFile(t, vars["GITHUB_STEP_SUMMARY"])
			if !strings.Contains(summary, "interleaved A/B") || !strings.Contains(summary, "kernel/n=1024") {
				t.Errorf("the job summary does not say interleaved or lacks the benchmark:\n%s", summary)
			}
			if cs := fake.Comments("Codertocat", "Hello-World", e2ePR); len(cs) != 1 || !strings.Contains(cs[0].Body, "interleaved A/B") {
				t.Errorf("want one sticky comment saying interleaved, got %+v", cs)
			}
			if ss := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA); len(ss) != 1 || ss[0].State != tt.status {
				t.Errorf("statuses %+v, want one %s", ss, tt.status)
			}
			if !strings.Contains(stderr, "recorded run "+out["run-id"]) {
				t.Errorf("the pull-request run %s was not recorded:\n%s", out["run-id"], stderr)
			}
			checkRecordedPR(t, store, out["run-id"], tt.confirmRounds)
			if held := strings.Contains(summary, "#### 🔁 Confirmation (1 held, 0 not confirmed)"); held != (tt.confirmRounds > 0) {
				t.Errorf("the summary says the regression held: %v, want %v\n%s", held, tt.confirmRounds > 0, summary)
			}
			if wt := abGitOut(t, repo, "worktree", "list"); strings.Count(wt, "\n") != 0 {
				t.Errorf("worktree left behind:\n%s", wt)
			}
		})
	}
}

// checkRecordedPR checks that the head's rounds are stored as the rounds of
// one pull-request job (id is the first round's: <job>-r1, then -r2, -r3,
// one run group), 6 samples each, with confirmRounds confirmation rounds
// (<job>-<random>-c1 …), and that the store has no baseline run.
func checkRecordedPR(t *testing.T, store, id string, confirmRounds int) {
	t.Helper()
	s, err := filestore.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, err := s.Baseline(context.Background(), model.BaselineQuery{Branch: "master", Jobs: 10, Testbed: model.Fingerprint{Testbed: "gpu-runner-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Runs) != 0 {
		t.Errorf("the interleaved run left %d baseline runs; a pull request must never become a baseline", len(b.Runs))
	}
	job, ok := strings.CutSuffix(id, "-r1")
	if !ok {
		t.Fatalf("run-id %q is not a first round's (<job>-r1)", id)
	}
	files, _ := filepath.Glob(filepath.Join(store, "*", "*.json"))
	files2, _ := filepath.Glob(filepath.Join(store, "*", "*", "*.json"))
	var rounds []string
	for _, f := range append(files, files2...) {
		r, err := resultsjson.Load(f)
		if err != nil || r.Run.Group != job {
			continue
		}
		rounds = append(rounds, r.Run.ID)
		if r.Run.Event != model.EventPullRequest || r.Run.PR != e2ePR || len(r.Benchmarks) != 1 || len(r.Benchmarks[0].Samples) != 6 {
			t.Errorf("recorded run %s: event %s, PR %d, %d benchmarks; want a pull_request run of PR %d with 6 samples", r.Run.ID, r.Run.Event, r.Run.PR, len(r.Benchmarks), e2ePR)
		}
	}
	slices.Sort(rounds)
	var confirmed []string
	rounds = slices.DeleteFunc(rounds, func(id string) bool {
		c := regexp.MustCompile(`^` + regexp.QuoteMeta(job) + `-[0-9a-f]{8}-c[0-9]$`).MatchString(id)
		if c {
			confirmed = append(confirmed, id)
		}
		return c
	})
	if want := []string{job + "-r1", job + "-r2", job + "-r3"}; !slices.Equal(rounds, want) {
		t.Errorf("recorded rounds %v, want %v", rounds, want)
	}
	if len(confirmed) != confirmRounds {
		t.Errorf("recorded confirmation rounds %v, want %d", confirmed, confirmRounds)
	}
}

// TestActionInterleavedFilter checks that a filter matching no suite names
// the filter input, before anything is checked out.
func TestActionInterleavedFilter(t *testing.T) {
	repo, event := makeActionABRepo(t, 1)
	vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{
		"config": filepath.Join(repo, ".perfgate.yml"), "baseline": "interleaved", "github-token": "ghs_tok", "filter": "^gemm$"})
	vars["GITHUB_EVENT_PATH"], vars["GITHUB_API_URL"] = event, fakegithub.New(t, "ghs_tok").URL
	code, stdout, stderr := runActionInProcess(t, vars)
	if code != 2 || !strings.Contains(stderr, `filter: "^gemm$" matches no suite`) {
		t.Errorf("exit %d, want 2 naming the filter input\n%s\n%s", code, stdout, stderr)
	}
}

// TestActionInterleavedNoBase checks that a base commit missing from the
// checkout (a shallow clone) is exit 2 saying to fetch the history. It
// names the baseline by its deprecated input, mode, which still works and
// warns.
func TestActionInterleavedNoBase(t *testing.T) {
	repo, _ := makeActionABRepo(t, 1)
	vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{
		"config": filepath.Join(repo, ".perfgate.yml"), "mode": "interleaved", "github-token": "ghs_tok"})
	vars["GITHUB_API_URL"] = fakegithub.New(t, "ghs_tok").URL
	code, stdout, stderr := runActionInProcess(t, vars)
	if code != 2 || !strings.Contains(stderr, "fetch-depth: 0") {
		t.Errorf("exit %d, want 2 naming fetch-depth: 0\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "::warning title=perfgate%3A deprecated input::the mode input is deprecated: name it baseline (baseline: interleaved)") {
		t.Errorf("no deprecation warning for the mode input:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "worktrees")); err == nil {
		if entries, _ := os.ReadDir(filepath.Join(repo, ".git", "worktrees")); len(entries) > 0 {
			t.Errorf("a worktree was left behind")
		}
	}
}
