package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A Comment is an issue comment as the fake stores and returns it.
type Comment struct {
	ID                int64     `json:"id"`
	NodeID            string    `json:"node_id"`
	URL               string    `json:"url"`
	HTMLURL           string    `json:"html_url"`
	IssueURL          string    `json:"issue_url"`
	Body              string    `json:"body"`
	User              User      `json:"user"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	AuthorAssociation string    `json:"author_association"`
}

// A User is the author of a comment or status.
type User struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

// A Status is a commit status as the fake stores and returns it.
type Status struct {
	ID          int64     `json:"id"`
	NodeID      string    `json:"node_id"`
	URL         string    `json:"url"`
	AvatarURL   string    `json:"avatar_url"`
	State       string    `json:"state"`
	Description *string   `json:"description"`
	TargetURL   *string   `json:"target_url"`
	Context     string    `json:"context"`
	Creator     User      `json:"creator"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// bot is who the fake says wrote what the token created (GITHUB_TOKEN's
// user) unless AsUser makes the token a person's.
var bot = User{Login: "github-actions[bot]", ID: 41898282, Type: "Bot"}

// AsUser makes the token a personal access token of login: GET /user
// answers with that user, and what the token writes is theirs. By default
// the token is GITHUB_TOKEN, for which GET /user answers 403 as GitHub does
// for an app installation's token.
func (s *Server) AsUser(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.identity = User{Login: login, ID: 583231, Type: "User"}
}

// fixedTime keeps responses reproducible.
var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// SeedComment adds a comment by someone else to an issue, as if it had been
// there before the test.
func (s *Server) SeedComment(owner, repo string, issue int, login, body string) *Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.newComment(s.srv.URL, owner, repo, strconv.Itoa(issue), body)
	c.User = User{Login: login, ID: 1, Type: "User"}
	return c
}

// Comments returns the comments on an issue, oldest first.
func (s *Server) Comments(owner, repo string, issue int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments[fmt.Sprintf("%s/%s#%d", owner, repo, issue)] {
		out = append(out, *c)
	}
	return out
}

// Statuses returns the statuses set on a commit, oldest first.
func (s *Server) Statuses(owner, repo, sha string) []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Status(nil), s.statuses[owner+"/"+repo+"@"+sha]...)
}

// newComment stores a comment; the caller holds s.mu.
func (s *Server) newComment(root, owner, repo, issue, body string) *Comment {
	s.nextID++
	api := root + BasePath + "/repos/" + owner + "/" + repo
	c := &Comment{
		ID:                s.nextID,
		NodeID:            fmt.Sprintf("IC_fake%d", s.nextID),
		URL:               fmt.Sprintf("%s/issues/comments/%d", api, s.nextID),
		HTMLURL:           fmt.Sprintf("%s/%s/%s/pull/%s#issuecomment-%d", root, owner, repo, issue, s.nextID),
		IssueURL:          api + "/issues/" + issue,
		Body:              body,
		User:              s.identity,
		CreatedAt:         fixedTime,
		UpdatedAt:         fixedTime,
		AuthorAssociation: "NONE",
	}
	key := owner + "/" + repo + "#" + issue
	s.comments[key] = append(s.comments[key], c)
	return c
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request, p map[string]string) {
	perPage, page, err := pageParams(r)
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": err.Error()})
		return
	}
	s.mu.Lock()
	all := s.comments[p["owner"]+"/"+p["repo"]+"#"+p["issue_number"]]
	var items []Comment
	for i := (page - 1) * perPage; i < len(all) && i < page*perPage; i++ {
		items = append(items, *all[i])
	}
	last := max(1, (len(all)+perPage-1)/perPage)
	s.mu.Unlock()
	if items == nil {
		items = []Comment{}
	}
	if link := linkHeader(s.apiURL(r, r.URL.Path), perPage, page, last); link != "" {
		w.Header().Set("Link", link)
	}
	writeJSON(w, http.StatusOK, items)
}

// pageParams reads per_page (default 30, at most 100, as GitHub) and page.
func pageParams(r *http.Request) (perPage, page int, err error) {
	perPage, page = 30, 1
	if v := r.URL.Query().Get("per_page"); v != "" {
		if perPage, err = strconv.Atoi(v); err != nil || perPage < 1 {
			return 0, 0, fmt.Errorf("per_page: bad value %q", v)
		}
		perPage = min(perPage, 100)
	}
	if v := r.URL.Query().Get("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 {
			return 0, 0, fmt.Errorf("page: bad value %q", v)
		}
	}
	return perPage, page, nil
}

// linkHeader builds GitHub's Link header: first/prev when past page 1,
// next/last when before the last page.
func linkHeader(base string, perPage, page, last int) string {
	u := func(n int) string { return fmt.Sprintf("<%s?per_page=%d&page=%d>", base, perPage, n) }
	var rels []string
	if page < last {
		rels = append(rels, u(page+1)+`; rel="next"`, u(last)+`; rel="last"`)
	}
	if page > 1 {
		rels = append(rels, u(1)+`; rel="first"`, u(min(page-1, last))+`; rel="prev"`)
	}
	return strings.Join(rels, ", ")
}

// commentBody reads the body of a create or update request as GitHub
// validates it, answering 422 itself when it is missing or too long.
func commentBody(w http.ResponseWriter, body []byte) (string, bool) {
	var in struct{ Body string }
	if err := json.Unmarshal(body, &in); err != nil || in.Body == "" {
		unprocessable(w, "body")
		return "", false
	}
	if len([]rune(in.Body)) > 65536 {
		unprocessable(w, "body is too long (maximum is 65536 characters)")
		return "", false
	}
	return in.Body, true
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	text, ok := commentBody(w, body)
	if !ok {
		return
	}
	s.mu.Lock()
	c := *s.newComment("http://"+r.Host, p["owner"], p["repo"], p["issue_number"], text)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, c)
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	text, ok := commentBody(w, body)
	if !ok {
		return
	}
	id, _ := strconv.ParseInt(p["comment_id"], 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, list := range s.comments {
		if !strings.HasPrefix(key, p["owner"]+"/"+p["repo"]+"#") {
			continue
		}
		for _, c := range list {
			if c.ID == id {
				// A token with write access may edit anyone's comment, as
				// GitHub lets collaborators do: the author is the client's
				// to check.
				c.Body = text
				c.UpdatedAt = fixedTime.Add(time.Minute)
				writeJSON(w, http.StatusOK, *c)
				return
			}
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{
		"message": "Not Found", "documentation_url": "https://docs.github.com/rest/issues/comments#update-an-issue-comment",
	})
}

func (s *Server) createStatus(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	var in struct {
		State       string  `json:"state"`
		TargetURL   *string `json:"target_url"`
		Description *string `json:"description"`
		Context     *string `json:"context"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		unprocessable(w, "body")
		return
	}
	if in.Description != nil && len([]rune(*in.Description)) > 140 {
		// GitHub rejects descriptions over 140 characters.
		unprocessable(w, "description is too long (maximum is 140 characters)")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	st := Status{
		ID: s.nextID, NodeID: fmt.Sprintf("SC_fake%d", s.nextID),
		URL:       s.apiURL(r, r.URL.Path),
		AvatarURL: "https://avatars.githubusercontent.com/in/15368?v=4",
		State:     in.State, Description: in.Description, TargetURL: in.TargetURL,
		Context: "default", Creator: s.identity, CreatedAt: fixedTime, UpdatedAt: fixedTime,
	}
	if in.Context != nil {
		st.Context = *in.Context
	}
	key := p["owner"] + "/" + p["repo"] + "@" + p["sha"]
	s.statuses[key] = append(s.statuses[key], st)
	writeJSON(w, http.StatusCreated, st)
}

func unprocessable(w http.ResponseWriter, what string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
		"message": "Validation Failed", "errors": []map[string]string{{"message": what}},
		"documentation_url": "https://docs.github.com/rest",
	})
}

// deleteComment removes a comment from its issue; GitHub answers 204, or
// 404 when it is already gone.
func (s *Server) deleteComment(w http.ResponseWriter, p map[string]string) {
	id, _ := strconv.ParseInt(p["comment_id"], 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, list := range s.comments {
		if !strings.HasPrefix(key, p["owner"]+"/"+p["repo"]+"#") {
			continue
		}
		for i, c := range list {
			if c.ID == id {
				s.comments[key] = append(list[:i:i], list[i+1:]...)
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{
		"message": "Not Found", "documentation_url": "https://docs.github.com/rest/issues/comments#delete-an-issue-comment",
	})
}

// authenticatedUser answers GET /user: the user of a personal token, or
// 403 for GITHUB_TOKEN (an app installation's token), as GitHub does.
func (s *Server) authenticatedUser(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	u := s.identity
	s.mu.Unlock()
	if u.Type == "Bot" {
		writeJSON(w, http.StatusForbidden, map[string]string{
			"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user",
		})
		return
	}
	api := "http://" + r.Host + BasePath + "/users/" + u.Login
	out := map[string]any{"login": u.Login, "id": u.ID, "node_id": "U_fake", "type": u.Type, "site_admin": false,
		"avatar_url": "https://avatars.githubusercontent.com/u/583231?v=4", "gravatar_id": "", "url": api,
		"html_url": "https://github.com/" + u.Login, "created_at": fixedTime, "updated_at": fixedTime,
		"name": nil, "company": nil, "blog": "", "location": nil, "email": nil, "hireable": nil, "bio": nil,
		"public_repos": 0, "public_gists": 0, "followers": 0, "following": 0}
	for _, f := range []string{"events", "followers", "following", "gists", "organizations", "received_events", "repos", "starred", "subscriptions"} {
		out[f+"_url"] = api + "/" + f
	}
	writeJSON(w, http.StatusOK, out)
}
