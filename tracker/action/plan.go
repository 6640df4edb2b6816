package action

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A Kind is what a run of the action does, decided from the event (not
// to be confused with the baseline input, which says what a pull request
// is judged against, nor with a benchmark's mode parameter).
type Kind string

// The kinds of run.
const (
	// KindCheck judges a pull request: summary, annotations, sticky
	// comment, commit status; the run is recorded as a pull-request run.
	KindCheck Kind = "check"
	// KindBaseline records a run of the baseline branch (push, schedule)
	// as history; the job summary reports it against the previous history.
	KindBaseline Kind = "baseline"
	// KindReport only reports to the job summary (workflow_dispatch, pushes
	// to other branches); it records only when the record input says so.
	KindReport Kind = "report"
	// KindSteer answers a /perfgate command in a pull request's comment
	// (issue_comment; steer.go): accept regressions, or run the suites.
	KindSteer Kind = "steer"
	// KindIgnore does nothing: a comment that is no /perfgate command, or
	// not on a pull request, or not a new comment.
	KindIgnore Kind = "ignore"
)

// Env is the runner's description of the job: the GITHUB_* variables.
type Env struct {
	EventName  string // GITHUB_EVENT_NAME
	Repository string // GITHUB_REPOSITORY, owner/name
	SHA        string // GITHUB_SHA
	Ref        string // GITHUB_REF, e.g. refs/heads/main
	RefName    string // GITHUB_REF_NAME
	ServerURL  string // GITHUB_SERVER_URL
	RunID      string // GITHUB_RUN_ID
	Workflow   string // GITHUB_WORKFLOW (the workflow's name)
	Job        string // GITHUB_JOB (the job's id)
	BaseRef    string // GITHUB_BASE_REF: a pull request's base branch
}

// Inputs are the action inputs that shape the plan.
type Inputs struct {
	BaselineBranch string // "" = the repository's default branch
	Record         bool   // workflow_dispatch: record the run
	AllowForks     bool
	// Interleaved asks pull requests to be judged by an interleaved A/B
	// on the runner (the baseline input: interleaved) instead of the history.
	Interleaved bool
	// FailOnRegression makes a regression on a pull request fail the job.
	FailOnRegression bool
}

// A Plan is what one run of the action will do, decided from the event.
type Plan struct {
	Kind           Kind
	Event          string
	Repo           Repo
	PR             int    // the pull request number in KindCheck
	HeadSHA        string // the commit judged: the pull request's head, else GITHUB_SHA
	Branch         string // the branch that ran: the pull request's head branch, else GITHUB_REF_NAME
	BaselineBranch string
	Record         bool // record the run in the history store
	Fork           bool // a pull request from another repository (allowed by allow-forks)
	// BaseSHA and BaseRef are a pull request's base commit and branch
	// (pull_request.base.sha and .ref, else GITHUB_BASE_REF).
	BaseSHA, BaseRef string
	// Interleaved: judge this pull request by an interleaved A/B of its
	// base and head on this runner (Inputs.Interleaved, in KindCheck only;
	// other events record or report as with the history baseline).
	Interleaved bool
	// FailOnRegression: a regression fails the job (exit 1); only in
	// KindCheck, with Inputs.FailOnRegression.
	FailOnRegression bool
	RunURL           string
	Marker           string // the sticky comment's hidden marker
	// Command is the comment's command (KindSteer), and Why says why a
	// KindIgnore plan does nothing.
	Command *Command
	Why     string
	// AllowForks: a command may run a fork's pull request (the allow-forks
	// input; KindSteer).
	AllowForks bool
}

// A ForkError refuses a pull request from a fork: on a self-hosted runner
// its code would run on the GPU host with the runner's access.
type ForkError struct{ Head, Base string }

func (e *ForkError) Error() string {
	return fmt.Sprintf("refusing to run a pull request from the fork %s on this runner: it would execute untrusted code "+
		"on a self-hosted GPU host (into %s). Set the allow-forks input to true only if the runner is isolated and "+
		"disposable; see docs/action.md", e.Head, e.Base)
}

// An EventError is an event the action does not handle.
type EventError struct{ Event, Why string }

func (e *EventError) Error() string { return fmt.Sprintf("event %q: %s", e.Event, e.Why) }

// payload is the part of a webhook payload the plan needs.
type payload struct {
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Ref  string `json:"ref"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"` // null when the fork was deleted
		} `json:"head"`
		Base struct {
			Ref  string `json:"ref"`
			SHA  string `json:"sha"`
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
	Repository struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	// An issue_comment's: the action, the issue (a pull request when
	// issue.pull_request is set) and the comment.
	Action string `json:"action"`
	Issue  *struct {
		Number      int              `json:"number"`
		PullRequest *json.RawMessage `json:"pull_request"`
	} `json:"issue"`
	Comment *struct {
		ID      int64  `json:"id"`
		Body    string `json:"body"`
		HTMLURL string `json:"html_url"`
		User    struct {
			Login string `json:"login"`
		} `json:"user"`
	} `json:"comment"`
}

// Decide makes the plan for an event: env from the runner, the event
// payload (the file GITHUB_EVENT_PATH names), and the inputs.
func Decide(env Env, event []byte, in Inputs) (*Plan, error) {
	var p payload
	if len(event) > 0 {
		if err := json.Unmarshal(event, &p); err != nil {
			return nil, fmt.Errorf("event payload (GITHUB_EVENT_PATH): %w", err)
		}
	}
	owner, name, ok := strings.Cut(env.Repository, "/")
	if !ok || owner == "" || name == "" {
		return nil, fmt.Errorf("GITHUB_REPOSITORY: %q is not owner/name", env.Repository)
	}
	pl := &Plan{
		Event: env.EventName, Repo: Repo{owner, name}, HeadSHA: env.SHA, Branch: env.RefName,
		BaselineBranch: firstOf(in.BaselineBranch, p.Repository.DefaultBranch),
		RunURL:         fmt.Sprintf("%s/%s/actions/runs/%s", strings.TrimSuffix(env.ServerURL, "/"), env.Repository, env.RunID),
		Marker:         Marker(env.Workflow, env.Job),
	}
	if pl.BaselineBranch == "" && env.EventName == "schedule" {
		pl.BaselineBranch = env.RefName // schedules run on the default branch
	}
	if pl.BaselineBranch == "" {
		return nil, fmt.Errorf("baseline-branch: not set and the event payload names no default branch")
	}
	return pl, pl.decideKind(env, p, in)
}

func (pl *Plan) decideKind(env Env, p payload, in Inputs) error {
	onBaseline := env.Ref == "refs/heads/"+pl.BaselineBranch
	switch env.EventName {
	case "pull_request":
		return pl.decidePR(env, p, in)
	case "push", "schedule":
		pl.Kind, pl.Record = KindReport, false
		if onBaseline {
			pl.Kind, pl.Record = KindBaseline, true
		}
	case "workflow_dispatch":
		pl.Kind, pl.Record = KindReport, in.Record
	case "issue_comment":
		pl.decideComment(p, in)
	case "pull_request_target":
		return &EventError{env.EventName, "not supported: it runs with the base repository's secrets and write token, " +
			"so checking out and running the pull request's code would hand them to it; use pull_request"}
	default:
		return &EventError{env.EventName, "not supported (use pull_request, push, schedule, workflow_dispatch or issue_comment)"}
	}
	return nil
}

func (pl *Plan) decidePR(env Env, p payload, in Inputs) error {
	pr := p.PullRequest
	if pr == nil || pr.Number <= 0 || pr.Head.SHA == "" {
		return &EventError{"pull_request", "the event payload has no pull_request number and head sha"}
	}
	pl.Kind, pl.Record = KindCheck, true
	pl.PR, pl.HeadSHA, pl.Branch = pr.Number, pr.Head.SHA, pr.Head.Ref
	pl.BaseSHA, pl.BaseRef = pr.Base.SHA, firstOf(pr.Base.Ref, env.BaseRef)
	pl.Interleaved, pl.FailOnRegression = in.Interleaved, in.FailOnRegression
	head := "(deleted repository)"
	if pr.Head.Repo != nil {
		head = pr.Head.Repo.FullName
	}
	pl.Fork = head != pr.Base.Repo.FullName
	if pl.Fork && !in.AllowForks {
		return &ForkError{Head: head, Base: pr.Base.Repo.FullName}
	}
	return nil
}

// BaseCommit is the commit an interleaved A/B compares the pull request
// with: the event's base sha, else origin/<base branch>.
func (pl *Plan) BaseCommit() (string, error) {
	switch {
	case pl.BaseSHA != "":
		return pl.BaseSHA, nil
	case pl.BaseRef != "":
		return "origin/" + pl.BaseRef, nil
	}
	return "", fmt.Errorf("baseline: interleaved needs the pull request's base, but the event has no pull_request.base.sha and GITHUB_BASE_REF is empty")
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
