package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// ChangesMarkdown renders the change points a push run made appear (the
// job summary of a baseline run): one row per step, regressions first.
// repoURL ("https://github.com/owner/name", or "") links the commits.
// It returns "" when there are none.
func ChangesMarkdown(cs []trend.Change, branch, repoURL string) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### perfgate: %d new change point(s) on %s\n\n", len(cs), md(branch))
	fmt.Fprintf(&b, "Found by E-divisive means with a t-test over the branch's history (`perfgate trend %s`). "+
		"The commit is the first run of the new level; positive change is worse.\n\n", model.Flag("changes"))
	b.WriteString(ChangesTableMarkdown(cs, repoURL))
	return b.String()
}

// ChangesTableMarkdown is the table of ChangesMarkdown alone
// (`perfgate trend --changes --format markdown`), regressions first.
func ChangesTableMarkdown(cs []trend.Change, repoURL string) string {
	if len(cs) == 0 {
		return "No change points.\n"
	}
	var b strings.Builder
	b.WriteString("| benchmark | first run | before | after | change | p |\n|---|---|--:|--:|--:|--:|\n")
	for _, pass := range []string{"regression", "improvement"} {
		for _, c := range cs {
			if c.Kind != pass {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s %s | %s %s | %s %s | %s %+.1f%% | %.2g |\n", mdCode(c.Suite+"/"+c.Name),
				commitLink(c.Run.Commit, repoURL), c.Run.StartedAt.UTC().Format("2006-01-02 15:04Z"),
				fmtNum(c.Before), md(c.Unit), fmtNum(c.After), md(c.Unit), verdictMark(c.Kind), 100*c.Change, c.P)
		}
	}
	return b.String()
}

// commitLink abbreviates a commit and links it when it is a hex SHA.
func commitLink(sha, repoURL string) string {
	short := model.ShortSHA(sha)
	if !isHex(sha) || len(sha) < 7 || repoURL == "" {
		return mdCode(short)
	}
	return fmt.Sprintf("[`%s`](%s/commit/%s)", short, repoURL, sha)
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return s != ""
}

func verdictMark(kind string) string {
	if kind == "regression" {
		return "🔴"
	}
	return "🟢"
}

func fmtNum(v float64) string { return fmt.Sprintf("%.4g", v) }
