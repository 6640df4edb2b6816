package report

import (
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func TestChangeNotice(t *testing.T) {
	at := time.Date(2026, 11, 21, 15, 11, 0, 0, time.UTC)
	steps := []NoticeStep{
		{Change: trend.Change{Suite: "elementwise", Name: "add/dtype=fp16/n=1M", Unit: "ns", Better: model.Lower, Step: trend.Step{
			Index: 4, Before: 6720, After: 6050, Change: -0.0997, Kind: "improvement", P: 2e-6,
			Run: model.RunRef{ID: "r5", Commit: "a11ce50000000000000000000000000000000000", Testbed: "h100", StartedAt: at}}},
			Key: "0123456789abcdef", TrendURL: "https://perf.example.org/elementwise-1a2b3c4d.html?q=add%2Fdtype%3Dfp16"},
		{Change: trend.Change{Suite: "bw", Name: "copy|<b>@you #1 [x](javascript:y)", Unit: "GB/s", Better: model.Higher, Step: trend.Step{
			Index: 0, Before: 3012, After: 2650, Change: 0.137, Kind: "regression", P: 3.1e-9,
			Run: model.RunRef{ID: "r1", Commit: "not a sha](javascript:x)", Testbed: "h100 <img>", StartedAt: at}}},
			Key: "--> <script>", TrendURL: "javascript:alert(1)"},
	}
	got := ChangeNotice(steps, 0, "main", "0123456789abcdef0123456789abcdef01234567", "https://github.com/o/r")
	golden.Check(t, "notice.md", got)
	if strings.Count(got, "<!-- perfgate:change-point") != 1 || strings.Contains(got, "javascript:alert") {
		t.Errorf("a key that is not hex made a marker, or a javascript: URL got through:\n%s", got)
	}
}
