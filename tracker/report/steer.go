package report

import (
	"fmt"
	"strings"
)

// A CommandReply is perfgate's answer to a /perfgate command in a pull
// request's comment, when the sticky comment does not answer it: a refusal,
// a malformed command, or an acceptance waiting for a result to apply to.
type CommandReply struct {
	Who     string // the commenter's login
	Command string // the command line as written
	// Refused says why the command was not carried out ("" = it was):
	// "permission", "fork", "closed" or "malformed".
	Refused    string
	Permission string // permission: what the API said the commenter has
	Repo       string // permission: the repository
	Detail     string // malformed: what is wrong; fork: the head repository
	Usage      string // malformed: the commands (Markdown from the caller)
	Head       string // accepted, waiting: the head commit with no stored result
}

// CommandReplyMarkdown renders a reply. Every string but Usage is user
// text, escaped; the command is quoted, never executed as Markdown.
func CommandReplyMarkdown(r CommandReply) string {
	var b strings.Builder
	fmt.Fprintf(&b, "> %s\n\n", md(r.Command))
	who := md("@" + r.Who)
	switch r.Refused {
	case "permission":
		fmt.Fprintf(&b, "🚫 Refused: %s, perfgate commands need write access to %s, and GitHub's permission API says you have %s. "+
			"Nothing changed: the verdict and the status stand. A maintainer can run the command instead.\n",
			who, mdCode(r.Repo), mdCode(r.Permission))
	case "fork":
		fmt.Fprintf(&b, "🚫 Refused: this pull request comes from the fork %s, and the allow-forks input is off: "+
			"its code does not run on this repository's self-hosted GPU runner (docs/action.md, \"Security\").\n", mdCode(r.Detail))
	case "closed":
		b.WriteString("🚫 Refused: this pull request is closed.\n")
	case "malformed":
		fmt.Fprintf(&b, "⚠️ Not understood (%s). Commands: %s.\n", md(r.Detail), r.Usage)
	default:
		fmt.Fprintf(&b, "☑️ Accepted by %s and recorded. No perfgate result of the head %s is stored yet: "+
			"the next run on this pull request applies it.\n", who, mdCode(shortSHA(r.Head)))
	}
	return b.String()
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
