package action

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perfgate/perfgate/tracker/compare"
)

// judged is a comparison with verdict counts s, judged at threshold under
// policy p.
func judged(s compare.Summary, threshold float64, p compare.InconclusivePolicy) *compare.Comparison {
	return &compare.Comparison{Summary: s, Options: compare.Options{Threshold: threshold, Inconclusive: p}}
}

func TestStatusFor(t *testing.T) {
	tests := []struct {
		name    string
		c       *compare.Comparison
		failOn  bool
		verdict Verdict
		state   string
		desc    string
	}{
		{"regression fails", judged(compare.Summary{Regressions: 2, Improvements: 1, Unchanged: 30}, 0.1, ""), true, Fail, StateFailure,
			"fail: 2 regressions, 1 improvement, 30 unchanged (threshold 10%)"},
		{"informational", judged(compare.Summary{Regressions: 1, Unchanged: 3}, 0.1, ""), false, Fail, StateSuccess,
			"fail: 1 regression, 3 unchanged (threshold 10%) [informational]"},
		{"pass policy", judged(compare.Summary{Unchanged: 5, Warnings: 1}, 0.05, compare.InconclusivePass), true, Pass, StateSuccess,
			"pass: 1 warning, 5 unchanged (threshold 5%)"},
		{"default policy: a warning is inconclusive", judged(compare.Summary{Unchanged: 5, Warnings: 1}, 0.05, ""), true, Inconclusive, StateSuccess,
			"inconclusive: 1 warning, 5 unchanged (threshold 5%)"},
		{"fail policy", judged(compare.Summary{Unchanged: 5, Noisy: 4}, 0.1, compare.InconclusiveFail), true, Inconclusive, StateFailure,
			"inconclusive: 5 unchanged, 4 too noisy (threshold 10%)"},
		{"fail policy, informational", judged(compare.Summary{Unchanged: 5, Noisy: 4}, 0.1, compare.InconclusiveFail), false, Inconclusive, StateSuccess,
			"inconclusive: 5 unchanged, 4 too noisy (threshold 10%) [informational]"},
		{"inconclusive without a baseline", judged(compare.Summary{Incomparable: 4}, 0.1, ""), true, Inconclusive, StateSuccess,
			"inconclusive: 4 incomparable (threshold 10%)"},
		{"nothing", judged(compare.Summary{}, 0, ""), true, Inconclusive, StateSuccess, "inconclusive: no benchmarks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := VerdictOf(tt.c); v != tt.verdict {
				t.Errorf("Verdict = %s, want %s", v, tt.verdict)
			}
			st := StatusFor(tt.c, tt.failOn, "https://u")
			want := Status{State: tt.state, Context: "perfgate", Description: tt.desc, TargetURL: "https://u"}
			if st != want {
				t.Errorf("StatusFor\n got %+v\nwant %+v", st, want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("ü", 200)
	got := Clip(long, MaxStatusDescription)
	if utf8.RuneCountInString(got) != MaxStatusDescription || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip gave %d characters: %q", utf8.RuneCountInString(got), got)
	}
	if Clip("short", 140) != "short" {
		t.Error("Clip changed a short string")
	}
}

func TestSecrets(t *testing.T) {
	tests := []struct {
		name, token, db string
		want            []string
	}{
		{"token only", "ghs_abc", "", []string{"ghs_abc"}},
		{"URL password, percent-encoded", "ghs_abc", "postgres://perf:p%40ss%2Fw@db:5432/perf", []string{"ghs_abc", "p@ss/w", "p%40ss%2Fw", "p@ss%2Fw"}},
		{"password query parameter", "", "postgres://db/perf?user=perf&password=s3cret", []string{"s3cret"}},
		{"key=value form", "", "host=db user=perf password='s3cret' dbname=perf", []string{"s3cret"}},
		{"no password", "", "postgres://perf@db/perf", nil},
		{"unparseable: '@' and '%' in the password", "", "postgres://user:p@ss%word-S3cret@host/db", []string{"p@ss%word-S3cret"}},
		{"unparseable, with a '/' in the password", "", "postgres://u:a/b@c%zz@host:5432/db?sslmode=disable", []string{"a/b@c%zz"}},
		{"neither form: masked whole", "", "hunter2-S3cret", []string{"hunter2-S3cret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Secrets(tt.token, tt.db); !slices.Equal(got, tt.want) {
				t.Errorf("Secrets = %q, want %q", got, tt.want)
			}
		})
	}
}
