package main

import (
	"context"
	"net/url"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/tracker/action"
)

// readNotifyInputs reads notify-changes and dashboard-url.
func (o *actionOptions) readNotifyInputs(gha *githubactions.Action) error {
	var err error
	if o.notify, err = action.ParseNotifyPolicy(gha.GetInput("notify-changes")); err != nil {
		return &exitError{code: exitBadInput, err: err}
	}
	o.dashboardURL = strings.TrimSpace(gha.GetInput("dashboard-url"))
	if o.dashboardURL == "" {
		return nil
	}
	u, err := url.Parse(o.dashboardURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(o.dashboardURL, " ()<>\"'`[]\\|") {
		return usageError("dashboard-url: %q is not an http(s) URL of the published dashboard (perfgate site), without a query", o.dashboardURL)
	}
	return nil
}

// notifyClients returns how a push's new change points are announced: nil
// when notify-changes is off (the job summary lists them anyway).
func notifyClients(o *actionOptions, e *env) (*action.Notify, error) {
	if o.notify == action.NotifyOff {
		return nil, nil
	}
	if o.token == "" {
		return nil, usageError("github-token: empty; notify-changes: %s needs it", o.notify)
	}
	c, err := githubapi.New(o.apiURL, o.token, githubapi.Options{Timeout: o.githubTimeout})
	if err != nil {
		return nil, usageError("%v", err)
	}
	override := e.Getenv("PERFGATE_GITHUB_LOGIN")
	return &action.Notify{Policy: o.notify, CommitComments: c.CommitComments(), Issues: c.Issues(), DashboardURL: o.dashboardURL,
		Login: func(ctx context.Context) (string, error) { return c.Login(ctx, override) }}, nil
}
