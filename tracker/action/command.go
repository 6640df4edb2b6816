package action

import (
	"fmt"
	"strings"
)

// A Command is a /perfgate command from a pull request's comment
// (docs/action.md, "Steering the gate"):
//
//	/perfgate accept GLOB [reason]   accept the regressions of the benchmarks GLOB matches
//	/perfgate run [filter]           run the suites (those filter matches) on the pull request's head
//
// Only the comment's first line is read; the rest is free text.
type Command struct {
	Verb      string // "accept" or "run"
	Glob      string // accept: "suite/name" glob
	Reason    string // accept: the rest of the line
	Filter    string // run: a regular expression over suite names ("" = all)
	CommentID int64
	URL       string // the comment's html_url
	Author    string // the comment's author (user.login): trusted only after the permission check
	Err       string // a malformed command: what to answer
}

// CommandPrefix starts every command.
const CommandPrefix = "/perfgate"

// CommandUsage is the answer to a malformed command.
const CommandUsage = "`/perfgate accept GLOB [reason]` (accept the regressions of the benchmarks GLOB matches, e.g. `gemm/*`) or `/perfgate run [filter]` (run the suites again on this pull request's head)"

// ParseCommand reads a comment body. ok is false when the comment is no
// /perfgate command at all (it does not start with the prefix and a space
// or its end); a malformed command is ok with Err set.
func ParseCommand(body string) (c Command, ok bool) {
	line, _, _ := strings.Cut(strings.TrimLeft(body, " \t\r\n"), "\n")
	line = strings.TrimSpace(line)
	rest, found := strings.CutPrefix(line, CommandPrefix)
	if !found || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return Command{}, false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return Command{Err: "no command given"}, true
	}
	c.Verb = f[0]
	switch {
	case c.Verb == "accept" && len(f) >= 2:
		c.Glob = f[1]
		c.Reason = strings.Join(f[2:], " ")
	case c.Verb == "accept":
		c.Err = "accept needs the benchmarks to accept, a glob such as `gemm/*`"
	case c.Verb == "run" && len(f) <= 2:
		if len(f) == 2 {
			c.Filter = f[1]
		}
	case c.Verb == "run":
		c.Err = "run takes at most one filter (a regular expression over suite names, no spaces)"
	default:
		c.Err = fmt.Sprintf("unknown command %q", c.Verb)
	}
	return c, true
}

// decideComment plans an issue_comment: a /perfgate command written in a
// pull request's conversation becomes KindSteer; anything else is
// KindIgnore. The pull request's head is not in the payload: Steer reads
// it from the API.
func (pl *Plan) decideComment(p payload, in Inputs) {
	pl.Kind = KindIgnore
	switch {
	case p.Action != "created":
		pl.Why = fmt.Sprintf("the comment was %s, not created: only new comments are commands", p.Action)
		return
	case p.Issue == nil || p.Issue.PullRequest == nil || p.Comment == nil:
		pl.Why = "the comment is not on a pull request"
		return
	}
	c, ok := ParseCommand(p.Comment.Body)
	if !ok {
		pl.Why = "the comment is no " + CommandPrefix + " command"
		return
	}
	c.CommentID, c.URL, c.Author = p.Comment.ID, p.Comment.HTMLURL, p.Comment.User.Login
	pl.Kind, pl.PR, pl.Command = KindSteer, p.Issue.Number, &c
	pl.AllowForks, pl.Interleaved, pl.FailOnRegression = in.AllowForks, in.Interleaved, in.FailOnRegression
	pl.HeadSHA, pl.Branch = "", "" // GITHUB_SHA is the default branch's: the head comes from the API
}
