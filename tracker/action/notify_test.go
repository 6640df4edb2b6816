package action

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/trend"
)

func TestParseNotifyPolicy(t *testing.T) {
	tests := []struct {
		in      string
		want    NotifyPolicy
		wantErr bool
	}{
		{"", NotifyOff, false}, {"off", NotifyOff, false}, {" issue ", NotifyIssue, false},
		{"commit-comment", NotifyCommitComment, false}, {"comment", "", true}, {"Issue", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseNotifyPolicy(tt.in)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("ParseNotifyPolicy(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestStepKeyRoundTrip(t *testing.T) {
	c := trend.Change{Suite: "s", Name: "n --> <x>", Step: trend.Step{Run: model.RunRef{Commit: "abc", Testbed: "h100"}}}
	k := StepKey("o/r", c)
	other := c
	other.Run.Testbed = "a100"
	if StepKey("o/r", other) == k || StepKey("o/r2", c) == k {
		t.Error("the key does not tell testbeds or repositories apart")
	}
	body := "text\n" + report.NoticeMarker(k) + "\n" + report.NoticeMarker("not-hex") + "\n"
	if got := announced([]string{body}); len(got) != 1 || !got[k] {
		t.Errorf("announced = %v, want only %s", got, k)
	}
}

func TestTrendURL(t *testing.T) {
	c := trend.Change{Suite: "kernels", Name: "gemm/n=4096 & (x)", Step: trend.Step{Run: model.RunRef{Testbed: "h100 #1"}}}
	if got := trendURL("", c); got != "" {
		t.Errorf("no dashboard: %q", got)
	}
	want := "https://o.github.io/r/kernels-e98f56f9.html?q=gemm%2Fn%3D4096+%26+%28x%29&testbed=h100+%231"
	if got := trendURL("https://o.github.io/r/", c); got != want {
		t.Errorf("trendURL = %q, want %q", got, want)
	}
}
