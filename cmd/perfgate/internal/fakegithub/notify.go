package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// A CommitComment is a comment on a commit as the fake stores and returns
// it (repos/create-commit-comment).
type CommitComment struct {
	ID                int64     `json:"id"`
	NodeID            string    `json:"node_id"`
	URL               string    `json:"url"`
	HTMLURL           string    `json:"html_url"`
	Body              string    `json:"body"`
	Path              *string   `json:"path"`
	Position          *int      `json:"position"`
	Line              *int      `json:"line"`
	CommitID          string    `json:"commit_id"`
	User              User      `json:"user"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	AuthorAssociation string    `json:"author_association"`
}

// A Label is an issue's label.
type Label struct {
	ID      int64  `json:"id"`
	NodeID  string `json:"node_id"`
	URL     string `json:"url"`
	Name    string `json:"name"`
	Color   string `json:"color"`
	Default bool   `json:"default"`
}

// An Issue is an issue as the fake stores and returns it (issues/create).
type Issue struct {
	ID                int64     `json:"id"`
	NodeID            string    `json:"node_id"`
	URL               string    `json:"url"`
	RepositoryURL     string    `json:"repository_url"`
	LabelsURL         string    `json:"labels_url"`
	CommentsURL       string    `json:"comments_url"`
	EventsURL         string    `json:"events_url"`
	HTMLURL           string    `json:"html_url"`
	Number            int       `json:"number"`
	State             string    `json:"state"`
	Title             string    `json:"title"`
	Body              *string   `json:"body"`
	User              User      `json:"user"`
	Labels            []Label   `json:"labels"`
	Assignee          *User     `json:"assignee"`
	Milestone         *struct{} `json:"milestone"`
	Locked            bool      `json:"locked"`
	Comments          int       `json:"comments"`
	ClosedAt          *string   `json:"closed_at"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	AuthorAssociation string    `json:"author_association"`
}

// CommitComments returns the comments on a commit, oldest first.
func (s *Server) CommitComments(owner, repo, sha string) []CommitComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []CommitComment
	for _, c := range s.commitComments[owner+"/"+repo+"@"+sha] {
		out = append(out, *c)
	}
	return out
}

// Issues returns a repository's issues, oldest first.
func (s *Server) Issues(owner, repo string) []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Issue
	for _, is := range s.issues[owner+"/"+repo] {
		out = append(out, *is)
	}
	return out
}

// handleNotify serves the commit-comment and issue operations; it reports
// whether op was one of them.
func (s *Server) handleNotify(w http.ResponseWriter, r *http.Request, op *Operation, p map[string]string, body []byte) bool {
	switch op.ID {
	case "repos/list-comments-for-commit":
		s.mu.Lock()
		all := s.commitComments[p["owner"]+"/"+p["repo"]+"@"+p["commit_sha"]]
		items := make([]any, len(all))
		for i, c := range all {
			items[i] = *c
		}
		s.mu.Unlock()
		s.writePage(w, r, items)
	case "repos/create-commit-comment":
		text, ok := commentBody(w, body)
		if !ok {
			return true
		}
		s.mu.Lock()
		c := *s.newCommitComment("http://"+r.Host, p["owner"], p["repo"], p["commit_sha"], text)
		s.mu.Unlock()
		writeJSON(w, http.StatusCreated, c)
	case "issues/create":
		s.createIssue(w, r, p, body)
	case "issues/list-for-repo":
		s.listIssues(w, r, p)
	default:
		return false
	}
	return true
}

// writePage answers a list request with the page of items it asks for and
// GitHub's Link header.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, all []any) {
	perPage, page, err := pageParams(r)
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": err.Error()})
		return
	}
	items := []any{}
	for i := (page - 1) * perPage; i < len(all) && i < page*perPage; i++ {
		items = append(items, all[i])
	}
	if link := linkHeader(s.apiURL(r, r.URL.Path), perPage, page, max(1, (len(all)+perPage-1)/perPage)); link != "" {
		w.Header().Set("Link", link)
	}
	writeJSON(w, http.StatusOK, items)
}

// newCommitComment stores a comment on a commit; the caller holds s.mu.
func (s *Server) newCommitComment(root, owner, repo, sha, body string) *CommitComment {
	s.nextID++
	if s.commitComments == nil {
		s.commitComments = map[string][]*CommitComment{}
	}
	c := &CommitComment{
		ID: s.nextID, NodeID: fmt.Sprintf("CC_fake%d", s.nextID),
		URL:     fmt.Sprintf("%s%s/repos/%s/%s/comments/%d", root, BasePath, owner, repo, s.nextID),
		HTMLURL: fmt.Sprintf("%s/%s/%s/commit/%s#commitcomment-%d", root, owner, repo, sha, s.nextID),
		Body:    body, CommitID: sha, User: s.identity, CreatedAt: fixedTime, UpdatedAt: fixedTime,
		AuthorAssociation: "NONE",
	}
	key := owner + "/" + repo + "@" + sha
	s.commitComments[key] = append(s.commitComments[key], c)
	return c
}

// newIssue stores an open issue; the caller holds s.mu.
func (s *Server) newIssue(root, owner, repo, title, body string, labels []string) *Issue {
	s.nextID++
	if s.issues == nil {
		s.issues = map[string][]*Issue{}
	}
	key := owner + "/" + repo
	n := len(s.issues[key]) + 1
	api := fmt.Sprintf("%s%s/repos/%s/%s", root, BasePath, owner, repo)
	is := &Issue{
		ID: s.nextID, NodeID: fmt.Sprintf("I_fake%d", s.nextID), Number: n,
		URL: fmt.Sprintf("%s/issues/%d", api, n), RepositoryURL: api, LabelsURL: fmt.Sprintf("%s/issues/%d/labels{/name}", api, n),
		CommentsURL: fmt.Sprintf("%s/issues/%d/comments", api, n), EventsURL: fmt.Sprintf("%s/issues/%d/events", api, n),
		HTMLURL: fmt.Sprintf("%s/%s/%s/issues/%d", root, owner, repo, n), State: "open", Title: title, Body: &body,
		User: s.identity, Labels: []Label{}, CreatedAt: fixedTime.Add(time.Duration(n) * time.Minute),
		UpdatedAt: fixedTime.Add(time.Duration(n) * time.Minute), AuthorAssociation: "NONE",
	}
	for _, l := range labels {
		// GitHub creates a label that does not exist yet for a token with
		// push access.
		is.Labels = append(is.Labels, Label{ID: int64(len(l)), NodeID: "LA_fake", URL: api + "/labels/" + l, Name: l, Color: "ededed"})
	}
	s.issues[key] = append(s.issues[key], is)
	return is
}

func (s *Server) createIssue(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	var in struct {
		Title  any      `json:"title"`
		Body   string   `json:"body"`
		Labels []string `json:"labels"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		unprocessable(w, "body")
		return
	}
	title, _ := in.Title.(string)
	if title == "" {
		unprocessable(w, "title")
		return
	}
	if len([]rune(in.Body)) > 65536 {
		unprocessable(w, "body is too long (maximum is 65536 characters)")
		return
	}
	s.mu.Lock()
	is := *s.newIssue("http://"+r.Host, p["owner"], p["repo"], title, in.Body, in.Labels)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, is)
}

// listIssues answers GET /repos/{owner}/{repo}/issues with the filters
// perfgate uses (state, creator, labels) and GitHub's default order,
// newest first.
func (s *Server) listIssues(w http.ResponseWriter, r *http.Request, p map[string]string) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	if !slices.Contains([]string{"open", "closed", "all"}, state) {
		unprocessable(w, "state")
		return
	}
	if v := q.Get("direction"); v != "" && v != "desc" || q.Get("sort") != "" && q.Get("sort") != "created" {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"message": "fakegithub: only sort=created direction=desc"})
		return
	}
	s.mu.Lock()
	var items []any
	list := s.issues[p["owner"]+"/"+p["repo"]]
	for i := len(list) - 1; i >= 0; i-- {
		is := list[i]
		if state != "all" && is.State != state || q.Get("creator") != "" && !strings.EqualFold(q.Get("creator"), is.User.Login) ||
			!hasLabels(is, q.Get("labels")) {
			continue
		}
		items = append(items, *is)
	}
	s.mu.Unlock()
	s.writePage(w, r, items)
}

func hasLabels(is *Issue, labels string) bool {
	if labels == "" {
		return true
	}
	for _, want := range strings.Split(labels, ",") {
		if !slices.ContainsFunc(is.Labels, func(l Label) bool { return strings.EqualFold(l.Name, strings.TrimSpace(want)) }) {
			return false
		}
	}
	return true
}
