package githubapi

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestForPlan(t *testing.T) {
	withToken := &action.Settings{Token: "tok", Notify: action.NotifyIssue}
	tests := []struct {
		name               string
		plan               action.Plan
		o                  *action.Settings
		wantGitHub, wantNt bool
		wantErr            string
	}{
		{"a pull request check", action.Plan{Kind: action.KindCheck}, withToken, true, false, ""},
		{"a check without a token", action.Plan{Kind: action.KindCheck}, &action.Settings{}, false, false, "github-token: empty; a pull request check or command"},
		{"a check against a bad API root", action.Plan{Kind: action.KindCheck}, &action.Settings{Token: "tok", APIURL: "api.example"}, false, false, "GITHUB_API_URL"},
		{"a recorded push that notifies (and asks which pull request it merged)", action.Plan{Kind: action.KindBaseline, Record: true}, withToken, true, true, ""},
		{"a recorded push with a token asks which pull request it merged", action.Plan{Kind: action.KindBaseline, Record: true}, &action.Settings{Token: "tok", Notify: action.NotifyOff}, true, false, ""},
		{"a command from a comment", action.Plan{Kind: action.KindSteer}, withToken, true, false, ""},
		{"a command without a token", action.Plan{Kind: action.KindSteer}, &action.Settings{}, false, false, "github-token: empty; a pull request check or command"},
		{"notify without a token", action.Plan{Kind: action.KindBaseline, Record: true}, &action.Settings{Notify: action.NotifyCommitComment}, false, false, "notify-changes: commit-comment needs it"},
		{"a push not recorded", action.Plan{Kind: action.KindBaseline}, withToken, false, false, ""},
		{"notify-changes off", action.Plan{Kind: action.KindBaseline, Record: true}, &action.Settings{Notify: action.NotifyOff}, false, false, ""},
		{"a report", action.Plan{Kind: action.KindReport}, &action.Settings{}, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gh, nt, err := ForPlan(&tt.plan, tt.o, "")
			if tt.wantErr != "" {
				if !model.IsInputError(err) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ForPlan: %v, want an input error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || (gh != nil) != tt.wantGitHub || (nt != nil) != tt.wantNt {
				t.Errorf("ForPlan: GitHub %v, Notify %v, %v; want GitHub %v, Notify %v", gh != nil, nt != nil, err, tt.wantGitHub, tt.wantNt)
			}
			if nt != nil && nt.Policy != tt.o.Notify {
				t.Errorf("Notify.Policy = %q, want %q", nt.Policy, tt.o.Notify)
			}
		})
	}
}
