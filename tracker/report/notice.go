package report

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// A NoticeStep is one change point of a ChangeNotice.
type NoticeStep struct {
	trend.Change
	// Key identifies the step across pushes (hex); the notice carries it
	// in a hidden marker so that a later push does not announce it again.
	Key string
	// TrendURL is the benchmark's page on the dashboard ("" for none).
	TrendURL string
}

// NoticeMarker is the hidden line a notice carries for each of its steps.
func NoticeMarker(key string) string { return "<!-- perfgate:change-point " + key + " -->" }

// ChangeNotice renders the issue or commit comment that announces change
// points found on branch after the push of commit pushed: per step the
// benchmark, its testbed, the first commit of the new level (linked), the
// medians before and after in scaled units and the change, regressions
// first, then one hidden marker per step. omitted counts the steps left
// out of the notice (they are in the job summary).
func ChangeNotice(steps []NoticeStep, omitted int, branch, pushed, repoURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### perfgate: %d new change point(s) on %s\n\n", len(steps)+omitted, mdCode(branch))
	fmt.Fprintf(&b, "Found after the push of %s was recorded, by E-divisive means with a t-test over the branch's "+
		"history (`perfgate trend %s`). The commit is the first run of the new level; a positive change is worse.\n\n",
		commitLink(pushed, repoURL), model.Flag("changes"))
	b.WriteString("| benchmark | testbed | first commit | median before → after | change | p |\n|---|---|---|--:|--:|--:|\n")
	for _, pass := range []string{"regression", "improvement"} {
		for _, s := range steps {
			if s.Kind != pass {
				continue
			}
			name := mdCode(s.Suite + "/" + s.Name)
			if u := safeURL(s.TrendURL); u != "" {
				name += " ([trend](" + u + "))"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s → %s | %s %+.1f%% | %.2g |\n", name, mdCode(s.Run.Testbed),
				commitLink(s.Run.Commit, repoURL), mdValue(s.Before, s.Unit), mdValue(s.After, s.Unit),
				verdictMark(s.Kind), 100*s.Step.Change, s.P)
		}
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "\nAnd %d more: see the job summary of the run.\n", omitted)
	}
	b.WriteString("\n")
	for _, s := range steps {
		if isHex(s.Key) {
			b.WriteString(NoticeMarker(s.Key) + "\n")
		}
	}
	return b.String()
}

// safeURL returns u when it is an absolute http(s) URL that cannot end a
// Markdown link early, else "".
func safeURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || strings.ContainsAny(u, " ()<>\"'`[]\\|\n\r\t") {
		return ""
	}
	return u
}
