package fakegithub

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Matcher selects the requests a stub answers.
type Matcher struct {
	what  string
	match func(r *http.Request) bool
}

// REST matches a method and a path relative to the API root, e.g.
// REST("POST", "repos/o/r/statuses/abc").
func REST(method, path string) Matcher {
	path = "/" + strings.TrimPrefix(path, "/")
	return Matcher{
		what:  method + " " + path,
		match: func(r *http.Request) bool { return r.Method == method && r.URL.Path == path },
	}
}

// A Responder writes a stub's response.
type Responder func(w http.ResponseWriter, r *http.Request)

type stub struct {
	what    string
	match   func(*http.Request) bool
	respond Responder
	used    bool
}

// Register adds a one-shot stub: the first request it matches gets its
// response instead of the fake's own. Stubs match in registration order.
func (s *Server) Register(m Matcher, r Responder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stubs = append(s.stubs, &stub{what: m.what, match: m.match, respond: r})
}

// takeStub returns the first unused stub matching r and marks it used. The
// caller holds s.mu.
func (s *Server) takeStub(r *http.Request) *stub {
	for _, st := range s.stubs {
		if !st.used && st.match(r) {
			st.used = true
			return st
		}
	}
	return nil
}

// ServerError answers with a 5xx as GitHub's front end does.
func ServerError(code int) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-GitHub-Request-Id", "FAKE:5XX")
		if code == http.StatusBadGateway || code == http.StatusServiceUnavailable {
			// The front end sends an HTML page for these, not JSON.
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(code)
			fmt.Fprintf(w, "<html><body><h1>%d %s</h1></body></html>\n", code, http.StatusText(code))
			return
		}
		writeJSON(w, code, map[string]string{"message": "Server Error"})
	}
}

// SecondaryRateLimit answers as GitHub does when a client exceeds a
// secondary rate limit: status 403 or 429, a Retry-After header when
// retryAfter > 0, and the documented message.
func SecondaryRateLimit(status int, retryAfter time.Duration) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		rateHeaders(w, 5000, 4990, time.Now().Add(time.Hour))
		if retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		}
		writeJSON(w, status, map[string]string{
			"message":           "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE:0001.",
			"documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
		})
	}
}

// PrimaryRateLimit answers as GitHub does when the hourly quota is spent:
// 403, x-ratelimit-remaining 0 and x-ratelimit-reset at reset.
func PrimaryRateLimit(reset time.Time) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		rateHeaders(w, 5000, 0, reset)
		writeJSON(w, http.StatusForbidden, map[string]string{
			"message":           "API rate limit exceeded for installation ID 1234.",
			"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits",
		})
	}
}

// Forbidden answers 403 as GitHub does when the token lacks a permission.
func Forbidden() Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		rateHeaders(w, 5000, 4990, time.Now().Add(time.Hour))
		writeJSON(w, http.StatusForbidden, map[string]string{
			"message":           "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
		})
	}
}

func rateHeaders(w http.ResponseWriter, limit, remaining int, reset time.Time) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(limit-remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

// Trickle answers 200 at once and then sends the body one space every
// interval, forever, as a stalled proxy or overloaded front end may: only a
// client deadline that covers the body ends the request.
func Trickle(every time.Duration) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	}
}

// AppliedThen applies the request to the fake's state and then answers
// with a 5xx, as GitHub does when its front end times out after the write
// went through: a client that retries a create makes a duplicate.
func (s *Server) AppliedThen(code int) Responder {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.answer(httptest.NewRecorder(), r, body)
		ServerError(code)(w, r)
	}
}

// Barrier returns a responder to register for n requests: each reads the
// fake's state into its answer, then waits until all n have arrived (or
// 10 s passed) before sending it, so n concurrent clients see the same
// state, as two jobs racing each other may. The answer is taken before the
// wait, not after: released together, one client could otherwise get its
// answer and write before another's handler, delayed by the scheduler on a
// loaded machine, read the state.
func (s *Server) Barrier(n int) Responder {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ans := httptest.NewRecorder()
		s.answer(ans, r, body)
		mu.Lock()
		if arrived++; arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(10 * time.Second):
		}
		for k, v := range ans.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(ans.Code)
		_, _ = w.Write(ans.Body.Bytes())
	}
}
