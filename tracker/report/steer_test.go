package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
)

// TestCommandReplyGolden renders every reply to a /perfgate command, with
// hostile text in the command and the login.
func TestCommandReplyGolden(t *testing.T) {
	replies := []CommandReply{
		{Who: "mallory", Command: "/perfgate accept * <img src=x> @octocat #1", Refused: "permission", Permission: "read", Repo: "Codertocat/Hello-World"},
		{Who: "octocat", Command: "/perfgate run", Refused: "fork", Detail: "forker/Hello-World"},
		{Who: "octocat", Command: "/perfgate accept gemm/*", Refused: "closed"},
		{Who: "octocat", Command: "/perfgate deploy `rm -rf`", Refused: "malformed", Detail: `unknown command "deploy"`, Usage: "`/perfgate accept GLOB [reason]`"},
		{Who: "octocat", Command: "/perfgate accept gemm/* fp32", Head: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"},
	}
	var all strings.Builder
	for _, r := range replies {
		all.WriteString(CommandReplyMarkdown(r) + "\n---\n\n")
	}
	got := all.String()
	golden.Check(t, "replies.md", got)
	if strings.Contains(got, "<img") || strings.Contains(got, "@octocat #1") || strings.Contains(got, " `rm") {
		t.Errorf("hostile text reached the reply unescaped:\n%s", got)
	}
}
