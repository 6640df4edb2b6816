package action

import (
	"fmt"
	"net/url"
	"strings"
)

// MaxCommentChars is GitHub's limit on the body of a comment, in characters.
const MaxCommentChars = 65536

// Marker returns the hidden marker that identifies the sticky comment of
// one workflow's job, so two perfgate jobs keep one comment each.
func Marker(workflow, job string) string {
	esc := func(s string) string { return strings.ReplaceAll(url.PathEscape(s), "-", "%2D") } // no "--" or ">" inside a comment
	return fmt.Sprintf("<!-- perfgate:sticky workflow=%s job=%s -->", esc(workflow), esc(job))
}

// A CommentPolicy says when the sticky comment is posted.
type CommentPolicy string

// The comment policies (the comment input).
const (
	CommentAlways   CommentPolicy = "always"    // create or update on every run
	CommentOnChange CommentPolicy = "on-change" // create only when a benchmark is not unchanged; always update an existing one
	CommentNever    CommentPolicy = "never"
)

// ParseCommentPolicy checks the comment input.
func ParseCommentPolicy(s string) (CommentPolicy, error) {
	switch p := CommentPolicy(s); p {
	case CommentAlways, CommentOnChange, CommentNever:
		return p, nil
	case "":
		return CommentAlways, nil
	}
	return "", fmt.Errorf("comment: %q is not always, on-change or never", s)
}

// A CommentAction is what happens to the sticky comment.
type CommentAction string

// The comment actions.
const (
	CommentSkip   CommentAction = "skip"
	CommentCreate CommentAction = "create"
	CommentUpdate CommentAction = "update"
)

// FitComment returns marker, a newline and body, cut at a line boundary
// with a note pointing to the full report when it is over GitHub's limit.
func FitComment(marker, body, pointer string) string {
	full := marker + "\n" + body
	if len([]rune(full)) <= MaxCommentChars {
		return full
	}
	note := "\n\n---\n**Truncated**: this comment is over GitHub's limit of 65536 characters. " + pointer + "\n"
	room := MaxCommentChars - len([]rune(marker)) - 1 - len([]rune(note))
	r := []rune(body)[:max(room, 0)]
	if i := strings.LastIndexByte(string(r), '\n'); i > 0 {
		return marker + "\n" + string(r)[:i] + note
	}
	return marker + "\n" + string(r) + note
}
