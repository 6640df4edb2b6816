package action

import "context"

// A Repo names a GitHub repository.
type Repo struct{ Owner, Name string }

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// A Comment is an issue or pull-request comment.
type Comment struct {
	ID     int64
	Body   string
	URL    string // html_url, for messages
	Author string // the login of its author (user.login)
}

// Comments reads and writes the comments of an issue or pull request. List
// returns every comment, oldest first, following pagination. Delete of a
// comment already gone succeeds.
type Comments interface {
	List(ctx context.Context, repo Repo, issue int) ([]Comment, error)
	Create(ctx context.Context, repo Repo, issue int, body string) (Comment, error)
	Update(ctx context.Context, repo Repo, id int64, body string) (Comment, error)
	Delete(ctx context.Context, repo Repo, id int64) error
}

// An UncertainError is a write whose outcome is unknown: the request went
// out but GitHub answered 5xx, or nothing in time, so it may have been
// applied. A create that fails so is not simply retried (that is how
// duplicate comments are made): the comments are listed again first.
type UncertainError struct{ Err error }

func (e *UncertainError) Error() string { return e.Err.Error() + " (it may have been applied)" }

func (e *UncertainError) Unwrap() error { return e.Err }

// The states of a commit status.
const (
	StateSuccess = "success"
	StateFailure = "failure"
	StateError   = "error"
	StatePending = "pending"
)

// A Status is a commit status.
type Status struct {
	State       string // success, failure, error or pending
	Context     string // "perfgate"
	Description string // one line, at most MaxStatusDescription characters
	TargetURL   string // the run's page
}

// Statuses sets commit statuses.
type Statuses interface {
	Create(ctx context.Context, repo Repo, sha string, s Status) error
}
