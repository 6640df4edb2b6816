// Package fakegithub is a fake GitHub REST API for tests: an httptest
// server under a non-empty base path (like GitHub Enterprise Server's
// /api/v3) that keeps issue comments, commit statuses and releases (their
// assets uploaded under /api/uploads and downloaded from
// /OWNER/REPO/releases/download/TAG/NAME, as on GHES), pull requests,
// collaborators' permissions and comment reactions (SetPull, SetPermission,
// Reactions), paginates like
// GitHub (per_page, page, Link headers), can be told to fail with 5xx and
// rate-limit responses, and checks every request it receives against
// GitHub's official REST description (testdata/openapi-ops.json).
//
// Faults are one-shot stubs registered in the style of cli/cli's httpmock;
// Verify fails the test on stubs never used and on requests the description
// does not allow. New registers Verify to run at cleanup.
package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// BasePath is where the fake serves the API, as GHES does.
const BasePath = "/api/v3"

// A Request is one request the fake received.
type Request struct {
	Method    string
	Path      string // relative to the API root, e.g. /repos/o/r/statuses/abc
	Query     string
	Operation string // the operationId it matched ("" if none)
	Body      []byte
	Status    int // the status the fake answered with
}

// A Server is a running fake GitHub API.
type Server struct {
	// URL is the API root to use as GITHUB_API_URL (ends in /api/v3).
	URL string
	// ServerURL is the web root to use as GITHUB_SERVER_URL: release
	// downloads.
	ServerURL string
	Token     string // the token every request must carry

	srv *httptest.Server
	ops []Operation

	mu       sync.Mutex
	identity User                  // who the token is: the author of what it writes
	comments map[string][]*Comment // by "owner/repo#issue"
	statuses map[string][]Status   // by "owner/repo@sha"
	releases []*release
	// commitComments (by "owner/repo@sha") and issues (by "owner/repo")
	// are notify.go's.
	commitComments map[string][]*CommitComment
	issues         map[string][]*Issue
	// pulls (by "owner/repo#n"), perms (by "owner/repo@user") and
	// reactions (by "owner/repo/commentID") are pulls.go's.
	pulls      map[string]Pull
	perms      map[string][2]string
	reactions  map[string][]string
	nextID     int64
	stubs      []*stub
	violations []string

	reqMu    sync.Mutex
	requests []Request
}

// New starts a fake API that accepts the given token, and stops it and
// calls Verify when the test ends.
func New(t testing.TB, token string) *Server {
	t.Helper()
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{
		Token:    token,
		ops:      ops,
		comments: map[string][]*Comment{},
		statuses: map[string][]Status{},
		nextID:   1000,
		identity: bot,
	}
	mux := http.NewServeMux()
	mux.Handle(BasePath+"/", http.StripPrefix(BasePath, s.api(false)))
	mux.Handle(UploadsPath+"/", http.StripPrefix(UploadsPath, s.api(true)))
	mux.HandleFunc("/_objects/", s.object)
	mux.HandleFunc("/", s.download)
	s.srv = httptest.NewServer(mux)
	s.URL, s.ServerURL = s.srv.URL+BasePath, s.srv.URL
	t.Cleanup(func() {
		s.srv.Close()
		s.Verify(t)
	})
	return s
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	return append([]Request(nil), s.requests...)
}

// api serves the API root, or with uploads the uploads root, whose
// operations are those the description gives their own server.
func (s *Server) api(uploads bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, uploads) })
}

// serve records the request, checks it against the REST description, and
// answers from a stub if one matches, else from the fake's state.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, uploads bool) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	op, params := match(s.ops, r.Method, r.URL.Path)
	if op != nil && (op.Server != "") != uploads {
		op, params = nil, nil // e.g. an upload sent to the API root
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body}
	// Record the request before answering, and its status as the header
	// goes out, so a client that has its answer finds it recorded.
	if op != nil {
		req.Operation = op.ID
	}
	s.reqMu.Lock()
	i := len(s.requests)
	s.requests = append(s.requests, req)
	s.reqMu.Unlock()
	rec := &recorder{ResponseWriter: w, code: http.StatusOK, onHeader: func(code int) {
		s.reqMu.Lock() // not s.mu: handlers answer while holding it
		s.requests[i].Status = code
		s.reqMu.Unlock()
	}}

	s.mu.Lock()
	if op == nil {
		s.violate("%s %s: no operation in GitHub's REST description matches", r.Method, r.URL.Path)
	} else {
		for _, v := range op.checkRequest(r.URL.Query(), body) {
			s.violate("%s %s (%s): %s", r.Method, r.URL.Path, op.ID, v)
		}
	}
	st := s.takeStub(r)
	s.mu.Unlock()

	switch {
	case st != nil:
		st.respond(rec, r)
	case r.Header.Get("Authorization") != "Bearer "+s.Token:
		writeJSON(rec, http.StatusUnauthorized, map[string]string{
			"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest",
		})
	case op == nil:
		writeJSON(rec, http.StatusNotFound, map[string]string{
			"message": "Not Found", "documentation_url": "https://docs.github.com/rest",
		})
	default:
		s.handle(rec, r, op, params, body)
		s.mu.Lock()
		for _, v := range op.checkResponse(rec.code, rec.body.Bytes()) {
			s.violate("%s %s (%s): fake's own response: %s", r.Method, r.URL.Path, op.ID, v)
		}
		s.mu.Unlock()
	}
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request, op *Operation, p map[string]string, body []byte) {
	switch op.ID {
	case "issues/list-comments":
		s.listComments(w, r, p)
	case "issues/create-comment":
		s.createComment(w, r, p, body)
	case "issues/update-comment":
		s.updateComment(w, r, p, body)
	case "issues/delete-comment":
		s.deleteComment(w, p)
	case "users/get-authenticated":
		s.authenticatedUser(w, r)
	case "repos/create-commit-status":
		s.createStatus(w, r, p, body)
	case "repos/get-release-by-tag":
		s.getReleaseByTag(w, p)
	case "repos/create-release":
		s.createRelease(w, r, p, body)
	case "repos/update-release":
		s.updateRelease(w, p, body)
	case "repos/upload-release-asset":
		s.uploadAsset(w, r, p, body)
	case "repos/delete-release-asset":
		s.deleteAsset(w, p)
	default:
		if s.handleNotify(w, r, op, p, body) || s.handlePulls(w, r, op, p, body) {
			return
		}
		writeJSON(w, http.StatusNotImplemented, map[string]string{"message": "fakegithub: " + op.ID + " not implemented"})
	}
}

// answer serves r from the fake's state, as if no stub matched.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, body []byte) {
	op, params := match(s.ops, r.Method, r.URL.Path)
	if op == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	s.handle(w, r, op, params, body)
}

// violate records a request the REST description does not allow. The
// caller holds s.mu.
func (s *Server) violate(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

// Verify fails t if a registered stub was never used or a request did not
// conform to GitHub's REST description.
func (s *Server) Verify(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.stubs {
		if !st.used {
			t.Errorf("fakegithub: stub never used: %s", st.what)
		}
	}
	for _, v := range s.violations {
		t.Errorf("fakegithub: request violates GitHub's REST description: %s", v)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// A recorder keeps the status and body of a response for checking.
type recorder struct {
	http.ResponseWriter
	code     int
	wrote    bool
	body     bytes.Buffer
	onHeader func(code int)
}

func (r *recorder) WriteHeader(code int) {
	if r.wrote {
		return
	}
	r.code, r.wrote = code, true
	r.onHeader(code)
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// Flush sends what was written so far, for responders that stream.
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// apiURL is the absolute API URL of a path relative to the API root.
func (s *Server) apiURL(r *http.Request, path string) string {
	return "http://" + r.Host + BasePath + "/" + strings.TrimPrefix(path, "/")
}
