package action

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// A Sticky is the one comment a workflow's job keeps on a pull request:
// the comments that start with its marker and were written by the token's
// own identity. Anyone can write a comment that starts with the marker;
// such a comment by someone else is never updated or deleted.
type Sticky struct {
	Comments Comments
	Repo     Repo
	PR       int
	Marker   string
	Author   string // the login the token writes as (GET /user, or the app's bot)
	Policy   CommentPolicy
	Tries    int                                      // creations attempted when they fail uncertainly (default 3)
	Wait     func(ctx context.Context, try int) error // between tries (default 2 s, 4 s, …)
}

// DecideComment chooses what to do given the pull request's comments: the
// sticky comment is the oldest one by author that starts with the marker
// (a reply quoting it starts with "> "). An existing comment is always
// updated, so it never shows a stale verdict; a new one is created unless
// the policy says never, or on-change and nothing changed.
func DecideComment(existing []Comment, marker, author string, policy CommentPolicy, changed bool) (CommentAction, int64) {
	if policy == CommentNever {
		return CommentSkip, 0
	}
	if mine := ours(existing, marker, author); len(mine) > 0 {
		return CommentUpdate, mine[0].ID
	}
	if policy == CommentOnChange && !changed {
		return CommentSkip, 0
	}
	return CommentCreate, 0
}

// ours returns the comments by author that start with marker, oldest
// (lowest ID) first.
func ours(cs []Comment, marker, author string) []Comment {
	var mine []Comment
	for _, c := range cs {
		if author != "" && strings.EqualFold(c.Author, author) && strings.HasPrefix(c.Body, marker) {
			mine = append(mine, c)
		}
	}
	slices.SortFunc(mine, func(a, b Comment) int { return int(a.ID - b.ID) })
	return mine
}

// Post creates or updates the sticky comment with body (which starts with
// the marker) and says what it did. It creates at most one comment even
// when GitHub applies a create but answers with an error, and when several
// jobs post at once they converge on the oldest comment, deleting the
// duplicates they wrote.
func (s *Sticky) Post(ctx context.Context, body string, changed bool) (CommentAction, Comment, error) {
	if s.Policy == CommentNever {
		return CommentSkip, Comment{}, nil
	}
	existing, err := s.Comments.List(ctx, s.Repo, s.PR)
	if err != nil {
		return CommentSkip, Comment{}, err
	}
	act, _ := DecideComment(existing, s.Marker, s.Author, s.Policy, changed)
	switch act {
	case CommentSkip:
		return act, Comment{}, nil
	case CommentUpdate:
		made, err := s.keepOne(ctx, ours(existing, s.Marker, s.Author), body, 0)
		return act, made, err
	}
	made, err := s.create(ctx, body)
	if err != nil {
		return act, made, err
	}
	// Another job may have created its own at the same time: keep one.
	existing, err = s.Comments.List(ctx, s.Repo, s.PR)
	if err != nil {
		return act, made, nil // ours is posted; a duplicate, if any, is merged by the next run
	}
	mine := ours(existing, s.Marker, s.Author)
	if len(mine) <= 1 {
		return act, made, nil
	}
	made, err = s.keepOne(ctx, mine, body, made.ID)
	return act, made, err
}

// create makes the comment. When the create fails uncertainly, the
// comments are listed again: if ours is there, the create was applied.
func (s *Sticky) create(ctx context.Context, body string) (Comment, error) {
	tries := max(s.Tries, 1)
	if s.Tries == 0 {
		tries = 3
	}
	for try := 1; ; try++ {
		made, err := s.Comments.Create(ctx, s.Repo, s.PR, body)
		if err == nil || !errors.As(err, new(*UncertainError)) {
			return made, err
		}
		existing, lerr := s.Comments.List(ctx, s.Repo, s.PR)
		if lerr != nil {
			return Comment{}, err
		}
		if mine := ours(existing, s.Marker, s.Author); len(mine) > 0 {
			return mine[len(mine)-1], nil
		}
		if try >= tries {
			return Comment{}, err
		}
		if werr := s.wait(ctx, try); werr != nil {
			return Comment{}, err
		}
	}
}

// keepOne keeps the oldest of our comments, with body, and deletes the
// others. fresh is the ID of a comment just created with body (0: none).
func (s *Sticky) keepOne(ctx context.Context, mine []Comment, body string, fresh int64) (Comment, error) {
	keep := mine[0]
	var errs []error
	for _, dup := range mine[1:] {
		if err := s.Comments.Delete(ctx, s.Repo, dup.ID); err != nil {
			errs = append(errs, err)
		}
	}
	if keep.ID != fresh && keep.Body != body {
		updated, err := s.Comments.Update(ctx, s.Repo, keep.ID, body)
		if err != nil {
			return keep, errors.Join(append(errs, err)...)
		}
		keep = updated
	}
	return keep, errors.Join(errs...)
}

func (s *Sticky) wait(ctx context.Context, try int) error {
	if s.Wait != nil {
		return s.Wait(ctx, try)
	}
	t := time.NewTimer(time.Second << try)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
