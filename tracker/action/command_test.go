package action

import (
	"encoding/json"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
		want Command
	}{
		{"/perfgate accept gemm/* fp32 accumulation: correct, and slower\nmore text", true,
			Command{Verb: "accept", Glob: "gemm/*", Reason: "fp32 accumulation: correct, and slower"}},
		{"  \n/perfgate   accept   io/copy", true, Command{Verb: "accept", Glob: "io/copy"}},
		{"/perfgate run", true, Command{Verb: "run"}},
		{"/perfgate run ^gemm$", true, Command{Verb: "run", Filter: "^gemm$"}},
		{"/perfgate run a b", true, Command{Verb: "run", Err: "run takes at most one filter (a regular expression over suite names, no spaces)"}},
		{"/perfgate accept", true, Command{Verb: "accept", Err: "accept needs the benchmarks to accept, a glob such as `gemm/*`"}},
		{"/perfgate", true, Command{Err: "no command given"}},
		{"/perfgate deploy prod", true, Command{Verb: "deploy", Err: `unknown command "deploy"`}},
		{"/perfgateaccept x", false, Command{}},
		{"LGTM /perfgate accept x", false, Command{}},
		{"", false, Command{}},
	}
	for _, tt := range tests {
		got, ok := ParseCommand(tt.body)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v, %v", tt.body, got, ok, tt.want, tt.ok)
		}
	}
}

// TestDecideIssueComment: a /perfgate command on a pull request's conversation
// is a steer plan for that pull request, its head left to the API (the
// job's GITHUB_SHA is the default branch's); anything else is ignored.
func TestDecideIssueComment(t *testing.T) {
	env := Env{EventName: "issue_comment", Repository: "Codertocat/Hello-World", SHA: "defaultbranchsha", Ref: "refs/heads/master",
		RefName: "master", ServerURL: "https://github.com", RunID: "42", Workflow: "perf", Job: "gate"}
	pl, err := Decide(env, event(t, "issue_comment.pr.json"), Inputs{})
	if err != nil {
		t.Fatal(err)
	}
	want := Command{Verb: "accept", Glob: "gemm/*", Reason: "fp32 accumulation: correct, and slower", CommentID: 492700400,
		URL: "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400", Author: "Codertocat"}
	if pl.Kind != KindSteer || pl.PR != 2 || pl.HeadSHA != "" || pl.Command == nil || *pl.Command != want ||
		pl.Marker != "<!-- perfgate:sticky workflow=perf job=gate -->" {
		t.Errorf("plan %+v, command %+v; want steer on #2 with %+v", pl, pl.Command, want)
	}
	edit := func(f func(p map[string]any)) []byte {
		var p map[string]any
		if err := json.Unmarshal(event(t, "issue_comment.pr.json"), &p); err != nil {
			t.Fatal(err)
		}
		f(p)
		b, _ := json.Marshal(p)
		return b
	}
	for name, payload := range map[string][]byte{
		"a comment on an issue": event(t, "issue_comment.issue.json"),
		"an edited comment":     edit(func(p map[string]any) { p["action"] = "edited" }),
		"no command":            edit(func(p map[string]any) { p["comment"].(map[string]any)["body"] = "LGTM" }),
	} {
		pl, err := Decide(env, payload, Inputs{})
		if err != nil || pl.Kind != KindIgnore || pl.Why == "" || pl.Command != nil {
			t.Errorf("%s: plan %+v, %v; want ignored, saying why", name, pl, err)
		}
	}
}
