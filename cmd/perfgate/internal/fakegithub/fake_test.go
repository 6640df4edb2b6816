package fakegithub

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// errorsTB records the errors Verify reports instead of failing the test.
type errorsTB struct {
	testing.TB
	errs []string
}

func (e *errorsTB) Helper() {}
func (e *errorsTB) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

func do(t *testing.T, s *Server, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func TestOperationsExtract(t *testing.T) {
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"issues/list-comments":                            "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
		"issues/create-comment":                           "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
		"issues/update-comment":                           "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
		"issues/delete-comment":                           "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}",
		"users/get-authenticated":                         "GET /user",
		"repos/create-commit-status":                      "POST /repos/{owner}/{repo}/statuses/{sha}",
		"repos/get-release-by-tag":                        "GET /repos/{owner}/{repo}/releases/tags/{tag}",
		"repos/create-release":                            "POST /repos/{owner}/{repo}/releases",
		"repos/update-release":                            "PATCH /repos/{owner}/{repo}/releases/{release_id}",
		"repos/upload-release-asset":                      "POST /repos/{owner}/{repo}/releases/{release_id}/assets",
		"repos/delete-release-asset":                      "DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}",
		"repos/create-commit-comment":                     "POST /repos/{owner}/{repo}/commits/{commit_sha}/comments",
		"repos/list-comments-for-commit":                  "GET /repos/{owner}/{repo}/commits/{commit_sha}/comments",
		"issues/create":                                   "POST /repos/{owner}/{repo}/issues",
		"issues/list-for-repo":                            "GET /repos/{owner}/{repo}/issues",
		"pulls/get":                                       "GET /repos/{owner}/{repo}/pulls/{pull_number}",
		"repos/get-collaborator-permission-level":         "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
		"reactions/create-for-issue-comment":              "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
		"repos/list-pull-requests-associated-with-commit": "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls",
	}
	for _, o := range ops {
		if want[o.ID] != o.Method+" "+o.Path {
			t.Errorf("%s: %s %s, want %s", o.ID, o.Method, o.Path, want[o.ID])
		}
		delete(want, o.ID)
	}
	if len(want) > 0 {
		t.Errorf("missing operations: %v", want)
	}
}

func TestVerifyReportsViolations(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		want                     string // a fragment of the one expected error
	}{
		{"unknown endpoint", "GET", "/repos/o/r/pulls/1/files", "", "no operation"},
		{"reaction outside the enum", "POST", "/repos/o/r/issues/comments/1/reactions", `{"content":"thumbsup"}`, `"content" = thumbsup`},
		{"wrong method", "PUT", "/repos/o/r/issues/1/comments", `{"body":"x"}`, "no operation"},
		{"missing body field", "POST", "/repos/o/r/issues/1/comments", `{"text":"x"}`, `required body field "body"`},
		{"status state outside the enum", "POST", "/repos/o/r/statuses/abc", `{"state":"failed"}`, `"state" = failed`},
		{"unknown query parameter", "GET", "/repos/o/r/issues/1/comments?perpage=5", "", `query parameter "perpage"`},
		{"conforming request", "POST", "/repos/o/r/statuses/abc", `{"state":"failure","context":"perfgate"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &errorsTB{TB: t}
			s := New(rec, "tok")
			do(t, s, tt.method, tt.path, tt.body)
			s.Verify(rec)
			switch {
			case tt.want == "" && len(rec.errs) > 0:
				t.Errorf("Verify reported %q for a conforming request", rec.errs)
			case tt.want != "" && (len(rec.errs) != 1 || !strings.Contains(rec.errs[0], tt.want)):
				t.Errorf("Verify reported %q, want one error containing %q", rec.errs, tt.want)
			}
			rec.errs = nil // the cleanup Verify runs again
		})
	}
}

func TestVerifyReportsUnusedStub(t *testing.T) {
	rec := &errorsTB{TB: t}
	s := New(rec, "tok")
	s.Register(REST("POST", "repos/o/r/statuses/abc"), ServerError(502))
	s.Verify(rec)
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "stub never used: POST /repos/o/r/statuses/abc") {
		t.Errorf("Verify reported %q, want the unused stub", rec.errs)
	}
	do(t, s, "POST", "/repos/o/r/statuses/abc", `{"state":"success"}`) // use it so cleanup passes
}

func TestPagination(t *testing.T) {
	s := New(t, "tok")
	for i := range 5 {
		s.SeedComment("o", "r", 1, "u", fmt.Sprint(i))
	}
	base := s.URL + "/repos/o/r/issues/1/comments"
	tests := []struct {
		query, link string
	}{
		{"?per_page=2", fmt.Sprintf(`<%[1]s?per_page=2&page=2>; rel="next", <%[1]s?per_page=2&page=3>; rel="last"`, base)},
		{"?per_page=2&page=2", fmt.Sprintf(`<%[1]s?per_page=2&page=3>; rel="next", <%[1]s?per_page=2&page=3>; rel="last", <%[1]s?per_page=2&page=1>; rel="first", <%[1]s?per_page=2&page=1>; rel="prev"`, base)},
		{"?per_page=2&page=3", fmt.Sprintf(`<%[1]s?per_page=2&page=1>; rel="first", <%[1]s?per_page=2&page=2>; rel="prev"`, base)},
		{"", ""}, // 5 comments fit the default 30 per page
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			resp := do(t, s, "GET", "/repos/o/r/issues/1/comments"+tt.query, "")
			if got := resp.Header.Get("Link"); got != tt.link {
				t.Errorf("Link = %s\nwant   %s", got, tt.link)
			}
		})
	}
}

func TestRejectsBadToken(t *testing.T) {
	s := New(t, "other")
	if resp := do(t, s, "GET", "/repos/o/r/issues/1/comments", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status = %d, want 401", resp.StatusCode)
	}
}
