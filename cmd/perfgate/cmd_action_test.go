package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// runActionInProcess runs perfgate action with only the given environment.
func runActionInProcess(t *testing.T, vars map[string]string) (code int, stdout, stderr string) {
	t.Helper()
	stdout, stderr, code = invoke(t, vars, "action")
	return code, stdout, stderr
}

func actionVars(t *testing.T, event, payload, ref string, inputs map[string]string) map[string]string {
	dir := t.TempDir()
	v := map[string]string{
		"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": filepath.Join("..", "..", "tracker", "action", "testdata", "events", payload),
		"GITHUB_REPOSITORY": e2eRepo, "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
		"GITHUB_REF": ref, "GITHUB_REF_NAME": strings.TrimPrefix(ref, "refs/heads/"), "GITHUB_RUN_ID": "7",
		"GITHUB_WORKFLOW": "perfgate", "GITHUB_JOB": "perfgate", "GITHUB_ACTIONS": "true",
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"RUNNER_TEMP": dir, "INPUT_STORE-DIR": filepath.Join(dir, "store"),
	}
	for k, val := range inputs {
		v["INPUT_"+strings.ToUpper(k)] = val
	}
	return v
}

func TestActionBadInputs(t *testing.T) {
	results := writeRun(t, t.TempDir(), "r1", "main", model.EventPush, 0, [3]float64{1, 1, 1})
	tests := []struct {
		name   string
		event  string
		inputs map[string]string
		want   string // in stderr
	}{
		{"threshold not a number", "push", map[string]string{"threshold": "ten"}, `threshold: "ten" is not a percentage`},
		{"negative threshold", "push", map[string]string{"threshold": "-5"}, "threshold:"},
		{"ambiguous threshold", "push", map[string]string{"threshold": "0.1"}, `threshold: "0.1" is ambiguous: write 10% for 10 percent, or 0.1% for 0.1 percent`},
		{"alpha out of range", "push", map[string]string{"alpha": "1"}, "alpha:"},
		{"threshold NaN", "push", map[string]string{"threshold": "NaN"}, `threshold: "NaN" is not a percentage`},
		{"alpha NaN", "push", map[string]string{"alpha": "nan"}, `alpha: "nan" is not a number`},
		{"threshold infinite", "push", map[string]string{"threshold": "+Inf"}, `threshold: "+Inf" is not a percentage`},
		{"fail-on-regression not a boolean", "push", map[string]string{"fail-on-regression": "yes"}, `fail-on-regression: "yes" is not true or false`},
		{"record not a boolean", "push", map[string]string{"record": "1"}, "record:"},
		{"skip-unchanged-kernels not a boolean", "push", map[string]string{"skip-unchanged-kernels": "yes"}, `skip-unchanged-kernels: "yes" is not true or false`},
		{"pre-run-checks", "push", map[string]string{"pre-run-checks": "refuse"}, `pre-run-checks: "refuse" is not warn, strict, off`},
		{"comment policy", "push", map[string]string{"comment": "sometimes"}, `comment: "sometimes" is not always, on-change or never`},
		{"notify-changes policy", "push", map[string]string{"notify-changes": "email"}, `notify-changes: "email" is not off, commit-comment or issue`},
		{"dashboard-url not a URL", "push", map[string]string{"dashboard-url": "pages/perf"}, `dashboard-url: "pages/perf" is not an http(s) URL`},
		{"dashboard-url that would end a link", "push", map[string]string{"dashboard-url": "https://x.io/a)[b](javascript:c"}, "dashboard-url:"},
		{"no results-file: the config is read", "push", map[string]string{"config": "missing.perfgate.yml"}, "missing.perfgate.yml"},
		{"filter not a regular expression", "push", map[string]string{"filter": "gemm(", "results-file": results}, "filter: error parsing regexp"},
		{"filter matches no suite", "push", map[string]string{"filter": "^nope$", "results-file": results}, `filter: "^nope$" matches no suite`},
		{"missing results file", "push", map[string]string{"results-file": "nope.json"}, "nope.json"},
		{"pull_request_target refused", "pull_request_target", map[string]string{"results-file": results}, "use pull_request"},
		{"unsupported event", "issues", map[string]string{"results-file": results}, `event "issues": not supported`},
		{"baseline", "push", map[string]string{"baseline": "ab", "results-file": results}, `baseline: "ab" is not history or interleaved`},
		{"mode, baseline's deprecated name", "push", map[string]string{"mode": "ab", "results-file": results}, `mode: "ab" is not history or interleaved`},
		{"rounds not a number", "push", map[string]string{"baseline": "interleaved", "rounds": "five"}, `rounds: "five" is not an integer`},
		{"zero rounds", "push", map[string]string{"baseline": "interleaved", "rounds": "0"}, "rounds:"},
		{"interleaved with results-file", "push", map[string]string{"baseline": "interleaved", "results-file": results}, "baseline: interleaved runs the suites of both sides itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := map[string]string{"github-token": "ghs_tok", "database-url": "postgres://perf:s3cret-pw@db.invalid/perf"}
			for k, v := range tt.inputs {
				in[k] = v
			}
			vars := actionVars(t, tt.event, "push.json", "refs/heads/master", in)
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, stderr, tt.want)
			}
			if !strings.HasPrefix(stdout, "::add-mask::ghs_tok\n::add-mask::s3cret-pw\n") {
				t.Errorf("secrets not masked first:\n%s", stdout)
			}
		})
	}
}

func TestActionDispatch(t *testing.T) {
	dir := t.TempDir()
	regressed := writeRun(t, dir, "dispatch-1", "main", model.EventWorkflowDispatch, 0, [3]float64{1.5, 1, 1})
	tests := []struct {
		name, record string
		recorded     bool
	}{
		{"reports only", "false", false},
		{"records when asked", "true", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := actionVars(t, "workflow_dispatch", "workflow_dispatch.json", "refs/heads/main",
				map[string]string{"results-file": regressed, "record": tt.record})
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != 0 {
				t.Fatalf("exit %d (a dispatch run reports, never fails the job)\n%s\n%s", code, stdout, stderr)
			}
			if got := strings.Contains(stderr, "recorded run dispatch-1"); got != tt.recorded {
				t.Errorf("recorded = %v, want %v\n%s", got, tt.recorded, stderr)
			}
			if !strings.Contains(stdout, "perfgate: verdict inconclusive") {
				t.Errorf("no verdict line (no history yet, so inconclusive):\n%s", stdout)
			}
		})
	}
}

// TestActionLongComment checks that a report too long for a comment is cut
// to GitHub's limit with a pointer to the job summary, which keeps it whole.
func TestActionLongComment(t *testing.T) {
	dir := t.TempDir()
	fake := fakegithub.New(t, "ghs_tok")
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "big", Repo: e2eRepo, Commit: e2eHeadSHA, Branch: "changes",
		PR: e2ePR, Event: model.EventPullRequest, Testbed: "t", StartedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
	for i := range 1500 {
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "many", Name: fmt.Sprintf("a-rather-long-benchmark-name/case=%04d", i),
			Unit: "ns", Better: model.Lower, Samples: []float64{10, 11, 12, 13, 14}})
	}
	path := filepath.Join(dir, "big.json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge",
		map[string]string{"results-file": path, "github-token": "ghs_tok"})
	vars["GITHUB_API_URL"], vars["GITHUB_SERVER_URL"] = fake.URL, "https://github.com"
	code, stdout, stderr := runActionInProcess(t, vars)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want 1", len(cs))
	}
	body := cs[0].Body
	summary, _ := os.ReadFile(vars["GITHUB_STEP_SUMMARY"])
	if n := utf8.RuneCountInString(body); n > action.MaxCommentChars || !strings.Contains(body, "https://github.com/Codertocat/Hello-World/actions/runs/7") {
		t.Errorf("comment of %d characters (limit %d), pointer present: %v", n, action.MaxCommentChars, strings.Contains(body, "actions/runs/7"))
	}
	if utf8.RuneCount(summary) <= action.MaxCommentChars {
		t.Fatalf("the report is only %d characters: the test does not exercise the limit", utf8.RuneCount(summary))
	}
	if !strings.Contains(string(summary), "case=1499") {
		t.Errorf("the job summary (%d bytes) does not hold the whole report", len(summary))
	}
}

// TestActionOutsideActions: run by hand, 'perfgate action' says it is not
// in GitHub Actions and how to try it locally, not that .perfgate.yml is
// missing (issue 11, defect 10).
func TestActionOutsideActions(t *testing.T) {
	for _, vars := range []map[string]string{nil, {"GITHUB_ACTIONS": "false", "GITHUB_EVENT_NAME": "push"}} {
		_, stderr, code := invoke(t, vars, "action")
		if code != cli.ExitBadInput || !strings.Contains(stderr, "not running in GitHub Actions") || !strings.Contains(stderr, "act (docs/action.md") ||
			strings.Contains(stderr, ".perfgate.yml") {
			t.Errorf("vars %v: exit %d, stderr %q; want 2, not in GitHub Actions, the act recipe", vars, code, stderr)
		}
	}
}
