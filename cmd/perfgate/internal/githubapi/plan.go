package githubapi

import (
	"context"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

// ForPlan makes the GitHub clients plan needs, from the action's settings
// o: comments and statuses to judge a pull request (KindCheck), and pull
// requests to answer a command (KindSteer); commit comments or issues to
// announce a recorded push's change points (when notify-changes is on),
// and, with a token, the pull requests a recorded push merged (to
// re-baseline accepted changes); nil for what the plan does not need.
// loginOverride, when set (PERFGATE_GITHUB_LOGIN), is the login of the
// token's user. An empty token or a malformed GITHUB_API_URL is an input
// error (exit 2).
func ForPlan(plan *action.Plan, o *action.Settings, loginOverride string) (*action.GitHub, *action.Notify, error) {
	switch {
	case plan.Kind == action.KindCheck || plan.Kind == action.KindSteer:
		c, login, err := forSettings(o, loginOverride, "a pull request check or command (to comment and set the status)")
		if err != nil {
			return nil, nil, err
		}
		return &action.GitHub{Comments: c.Comments(), Statuses: c.Statuses(), Login: login, Pulls: c.Pulls()}, nil, nil
	case plan.Kind == action.KindBaseline && plan.Record && o.Notify != action.NotifyOff:
		c, login, err := forSettings(o, loginOverride, "notify-changes: "+string(o.Notify))
		if err != nil {
			return nil, nil, err
		}
		return &action.GitHub{Pulls: c.Pulls()}, &action.Notify{Policy: o.Notify, CommitComments: c.CommitComments(), Issues: c.Issues(), DashboardURL: o.DashboardURL, Login: login}, nil
	case plan.Kind == action.KindBaseline && plan.Record && o.Token != "":
		c, _, err := forSettings(o, loginOverride, "")
		if err != nil {
			return nil, nil, err
		}
		return &action.GitHub{Pulls: c.Pulls()}, nil, nil
	}
	return nil, nil, nil
}

// forSettings makes the client of the github-token input, for need.
func forSettings(o *action.Settings, loginOverride, need string) (*Client, func(context.Context) (string, error), error) {
	if o.Token == "" {
		return nil, nil, &model.InputError{Msg: "github-token: empty; " + need + " needs it"}
	}
	c, err := New(o.APIURL, o.Token, Options{Timeout: o.GitHubTimeout})
	if err != nil {
		return nil, nil, &model.InputError{Msg: err.Error()}
	}
	return c, func(ctx context.Context) (string, error) { return c.Login(ctx, loginOverride) }, nil
}
