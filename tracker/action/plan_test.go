package action

import (
	"errors"
	"os"
	"testing"
)

func event(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/events/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecide(t *testing.T) {
	base := Env{Repository: "Codertocat/Hello-World", SHA: "merge0sha", ServerURL: "https://github.com", RunID: "42", Workflow: "perf", Job: "gate"}
	with := func(event, ref string) Env {
		e := base
		e.EventName, e.Ref = event, ref
		e.RefName = ref[len("refs/heads/"):]
		return e
	}
	tests := []struct {
		name    string
		env     Env
		payload string
		in      Inputs
		want    Plan
		wantErr any
	}{
		{"pull_request opened", with("pull_request", "refs/heads/xx"), "pull_request.opened.json", Inputs{},
			Plan{Kind: KindCheck, PR: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", Branch: "changes", BaselineBranch: "master", Record: true, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", BaseRef: "master"}, nil},
		// The plan carries the base and the exit policy: nothing re-reads the event.
		{"pull_request, interleaved, fail on regression", with("pull_request", "refs/heads/xx"), "pull_request.opened.json", Inputs{Interleaved: true, FailOnRegression: true},
			Plan{Kind: KindCheck, PR: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", Branch: "changes", BaselineBranch: "master", Record: true, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", BaseRef: "master",
				Interleaved: true, FailOnRegression: true}, nil},
		{"push ignores interleaved and fail-on-regression", with("push", "refs/heads/master"), "push.json", Inputs{Interleaved: true, FailOnRegression: true},
			Plan{Kind: KindBaseline, HeadSHA: "merge0sha", Branch: "master", BaselineBranch: "master", Record: true}, nil},
		{"pull_request synchronize, baseline-branch input", with("pull_request", "refs/heads/xx"), "pull_request.synchronize.json", Inputs{BaselineBranch: "main"},
			Plan{Kind: KindCheck, PR: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", Branch: "changes", BaselineBranch: "main", Record: true, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", BaseRef: "master"}, nil},
		{"fork refused", with("pull_request", "refs/heads/xx"), "pull_request.fork.json", Inputs{}, Plan{}, new(*ForkError)},
		{"fork allowed", with("pull_request", "refs/heads/xx"), "pull_request.fork.json", Inputs{AllowForks: true},
			Plan{Kind: KindCheck, PR: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", Branch: "changes", BaselineBranch: "master", Record: true, Fork: true, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", BaseRef: "master"}, nil},
		{"push to the default branch records a baseline", with("push", "refs/heads/master"), "push.json", Inputs{},
			Plan{Kind: KindBaseline, HeadSHA: "merge0sha", Branch: "master", BaselineBranch: "master", Record: true}, nil},
		{"push to another branch only reports", with("push", "refs/heads/master"), "push.json", Inputs{BaselineBranch: "main"},
			Plan{Kind: KindReport, HeadSHA: "merge0sha", Branch: "master", BaselineBranch: "main"}, nil},
		{"workflow_dispatch reports", with("workflow_dispatch", "refs/heads/main"), "workflow_dispatch.json", Inputs{},
			Plan{Kind: KindReport, HeadSHA: "merge0sha", Branch: "main", BaselineBranch: "main"}, nil},
		{"workflow_dispatch with record", with("workflow_dispatch", "refs/heads/main"), "workflow_dispatch.json", Inputs{Record: true},
			Plan{Kind: KindReport, HeadSHA: "merge0sha", Branch: "main", BaselineBranch: "main", Record: true}, nil},
		{"schedule without payload uses the ref", with("schedule", "refs/heads/trunk"), "", Inputs{},
			Plan{Kind: KindBaseline, HeadSHA: "merge0sha", Branch: "trunk", BaselineBranch: "trunk", Record: true}, nil},
		{"pull_request_target refused", with("pull_request_target", "refs/heads/master"), "pull_request.opened.json", Inputs{}, Plan{}, new(*EventError)},
		{"check_run unsupported", with("check_run", "refs/heads/master"), "push.json", Inputs{}, Plan{}, new(*EventError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var payload []byte
			if tt.payload != "" {
				payload = event(t, tt.payload)
			}
			got, err := Decide(tt.env, payload, tt.in)
			if tt.wantErr != nil {
				if !errors.As(err, tt.wantErr) {
					t.Fatalf("err = %v, want %T", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.Event, want.Repo = tt.env.EventName, Repo{"Codertocat", "Hello-World"}
			want.RunURL = "https://github.com/Codertocat/Hello-World/actions/runs/42"
			want.Marker = "<!-- perfgate:sticky workflow=perf job=gate -->"
			if *got != want {
				t.Errorf("plan\n got %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestDecideBadEnv(t *testing.T) {
	if _, err := Decide(Env{EventName: "push", Repository: "nope"}, nil, Inputs{BaselineBranch: "main"}); err == nil {
		t.Error("accepted GITHUB_REPOSITORY without a slash")
	}
	if _, err := Decide(Env{EventName: "push", Repository: "o/r"}, []byte("{"), Inputs{}); err == nil {
		t.Error("accepted a broken payload")
	}
	if _, err := Decide(Env{EventName: "push", Repository: "o/r"}, []byte("{}"), Inputs{}); err == nil {
		t.Error("accepted no baseline branch at all")
	}
}

func TestBaseCommit(t *testing.T) {
	tests := []struct {
		name string
		pl   Plan
		want string // "" = an error
	}{
		{"the event's sha", Plan{BaseSHA: "f95f852", BaseRef: "main"}, "f95f852"},
		{"the base branch", Plan{BaseRef: "main"}, "origin/main"},
		{"neither", Plan{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.pl.BaseCommit()
			if got != tt.want || (err == nil) != (tt.want != "") {
				t.Errorf("BaseCommit() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
