package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
)

// confirmMarkdown renders what re-running the regressions showed: one row
// per regression with its change in the first rounds, in the re-run rounds
// alone and in both together, and whether it held. "" when conf is nil.
func confirmMarkdown(conf *confirm.Confirmation) string {
	if conf == nil || len(conf.Outcomes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#### 🔁 Confirmation (%s)\n\n%s\n\n", confirmCounts(conf), md(confirmSentence(conf)))
	if conf.Failed != "" {
		fmt.Fprintf(&b, "⚠️ The re-run failed (%s): every regression stands unconfirmed.\n\n", md(conf.Failed))
		return b.String()
	}
	fmt.Fprintf(&b, "| benchmark | first rounds | re-run (%d rounds) | combined | outcome |\n|:--|--:|--:|--:|:--|\n", conf.Rounds)
	for _, o := range conf.Outcomes {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdCode(o.First.Suite+"/"+o.First.Name), pct(o.First.Change),
			rerunChange(o), combinedChange(o), md(outcomeWords(o, "❌ ", "✅ ")))
	}
	b.WriteByte('\n')
	return b.String()
}

// ConfirmText renders the confirmation for a terminal, after Text: one line
// per regression ("+12.1% → re-run +1.2% (combined +4.0%): not confirmed,
// now unchanged"). "" when conf is nil.
func ConfirmText(conf *confirm.Confirmation) string {
	if conf == nil || len(conf.Outcomes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nconfirmation (%s): %s\n", confirmCounts(conf), confirmSentence(conf))
	if conf.Failed != "" {
		fmt.Fprintf(&b, "  the re-run failed (%s): every regression stands unconfirmed\n", plain(conf.Failed))
		return b.String()
	}
	for _, o := range conf.Outcomes {
		name := plain(o.First.Suite + "/" + o.First.Name)
		if o.Skipped != "" {
			fmt.Fprintf(&b, "  %s: %s → %s\n", name, pct(o.First.Change), plain(outcomeWords(o, "", "")))
			continue
		}
		fmt.Fprintf(&b, "  %s: %s → re-run %s (combined %s): %s\n", name, pct(o.First.Change),
			rerunChange(o), combinedChange(o), plain(outcomeWords(o, "", "")))
	}
	return b.String()
}

func confirmCounts(conf *confirm.Confirmation) string {
	held := conf.Held()
	return fmt.Sprintf("%d held, %d not confirmed", held, len(conf.Outcomes)-held)
}

func confirmSentence(conf *confirm.Confirmation) string {
	return fmt.Sprintf("%s re-run in %s, each suite in a fresh process; the check fails only on a regression that holds on the first rounds and the re-runs together.",
		map[bool]string{true: "The regression was", false: fmt.Sprintf("The %d regressions were", len(conf.Outcomes))}[len(conf.Outcomes) == 1],
		count(conf.Rounds, "round"))
}

func rerunChange(o confirm.Outcome) string {
	if o.Skipped != "" {
		return "—"
	}
	return pct(o.Rerun.Change)
}

func combinedChange(o confirm.Outcome) string {
	if o.Skipped != "" {
		return "—"
	}
	return pct(o.Combined.Change)
}

// outcomeWords says whether the regression held, with the verdict it has
// now when it did not, or why it was not re-run.
func outcomeWords(o confirm.Outcome, heldMark, goneMark string) string {
	switch {
	case o.Skipped != "":
		return heldMark + "stands, not re-run: " + o.Skipped
	case o.Held:
		return heldMark + "held"
	case o.Combined.Verdict == compare.Unchanged:
		return goneMark + "not confirmed, now unchanged"
	default:
		return goneMark + "not confirmed, now " + string(o.Combined.Verdict)
	}
}
