package githubapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A retryTransport retries a request, a bounded number of times, when
// GitHub answers
//   - 500, 502, 503 or 504: after an exponential backoff (or Retry-After);
//   - 403 or 429 for a secondary rate limit: after Retry-After, else when
//     x-ratelimit-remaining is 0 after x-ratelimit-reset, else after a
//     minute, as GitHub's documentation asks;
//   - 403 or 429 for the primary rate limit: after x-ratelimit-reset.
//
// A wait longer than MaxWait is not taken: the response goes back as is and
// go-github turns it into a rate-limit error. Connection failures are
// retried only for GET, PUT and PATCH, which GitHub applies idempotently;
// a 5xx answer to a POST only when the caller marked it idempotent
// (withRetry5xx): a comment created twice is a duplicate.
type retryTransport struct {
	base     http.RoundTripper
	attempts int
	backoff  time.Duration
	maxWait  time.Duration
	timeout  time.Duration // each attempt, headers and body, must end within it
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
}

type retry5xxKey struct{}

// withRetry5xx marks a POST that GitHub applies idempotently, so a 5xx
// answer to it may be retried (POSTs are not, by default).
func withRetry5xx(ctx context.Context) context.Context {
	return context.WithValue(ctx, retry5xxKey{}, true)
}

// DefaultTimeout bounds each request to GitHub, its body included, unless
// Options.Timeout says otherwise.
const DefaultTimeout = 30 * time.Second

func newRetryTransport(o Options) *retryTransport {
	t := &retryTransport{base: o.Transport, attempts: o.Attempts, backoff: o.Backoff, maxWait: o.MaxWait,
		timeout: o.Timeout, sleep: o.Sleep, now: o.Now}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	if t.base == nil {
		t.base = http.DefaultTransport.(*http.Transport).Clone()
	}
	if t.attempts <= 0 {
		t.attempts = 4
	}
	if t.backoff <= 0 {
		t.backoff = 2 * time.Second
	}
	if t.maxWait <= 0 {
		t.maxWait = 90 * time.Second
	}
	if t.sleep == nil {
		t.sleep = sleepCtx
	}
	if t.now == nil {
		t.now = time.Now
	}
	return t
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 1; ; attempt++ {
		resp, err := t.attempt(req, attempt)
		wait, retry := t.retryAfter(req, resp, err, attempt)
		if !retry || attempt >= t.attempts || wait > t.maxWait {
			return resp, err
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
		}
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// attempt sends req once under the per-attempt deadline, which keeps
// running while the caller reads the body: a server that sends its headers
// and then trickles the body is cut off too.
func (t *retryTransport) attempt(req *http.Request, n int) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	try := req.Clone(ctx)
	if n > 1 && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			cancel()
			return nil, err
		}
		try.Body = body
	}
	resp, err := t.base.RoundTrip(try)
	if err != nil {
		cancel()
		return nil, t.timedOut(req, ctx, err)
	}
	resp.Body = &deadlineBody{ReadCloser: resp.Body, t: t, req: req, ctx: ctx, cancel: cancel}
	return resp, nil
}

// timedOut names the deadline when it, not the caller, ended the request.
func (t *retryTransport) timedOut(req *http.Request, ctx context.Context, err error) error {
	if err == nil || req.Context().Err() != nil || ctx.Err() == nil {
		return err
	}
	return &TimeoutError{Method: req.Method, Path: req.URL.Path, After: t.timeout, Err: err}
}

// A TimeoutError is a request GitHub did not answer in full within the
// per-request deadline (Options.Timeout).
type TimeoutError struct {
	Method, Path string
	After        time.Duration
	Err          error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s %s: no complete answer within %s (github-timeout, PERFGATE_GITHUB_TIMEOUT)", e.Method, e.Path, e.After)
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// A deadlineBody ends the attempt's deadline when the body is closed, and
// reports a read the deadline cut off as a *TimeoutError.
type deadlineBody struct {
	io.ReadCloser
	t      *retryTransport
	req    *http.Request
	ctx    context.Context
	cancel context.CancelFunc
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.t.timedOut(b.req, b.ctx, err)
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// retryAfter says whether to retry and how long to wait first.
func (t *retryTransport) retryAfter(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	backoff := t.backoff << (attempt - 1)
	if err != nil {
		if req.Context().Err() != nil {
			return 0, false // the caller gave up; a per-attempt timeout is retried below
		}
		switch req.Method {
		case http.MethodGet, http.MethodPut, http.MethodPatch:
			return backoff, true
		}
		return 0, false
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if req.Method == http.MethodPost && req.Context().Value(retry5xxKey{}) == nil {
			return 0, false // it may have been applied: retrying could make a second one
		}
		if d, ok := retryAfterHeader(resp, t.now()); ok {
			return d, true
		}
		return backoff, true
	case http.StatusForbidden, http.StatusTooManyRequests:
		return t.rateLimitWait(resp)
	}
	return 0, false
}

// rateLimitWait tells a rate-limit answer from a permission denial, and how
// long the limit asks to wait.
func (t *retryTransport) rateLimitWait(resp *http.Response) (time.Duration, bool) {
	now := t.now()
	if d, ok := retryAfterHeader(resp, now); ok {
		return d, true
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(reset, 0).Sub(now), 0) + time.Second, true
		}
	}
	if isSecondaryLimit(resp) {
		return time.Minute, true
	}
	return 0, false
}

// retryAfterHeader reads Retry-After in seconds or as an HTTP date.
func retryAfterHeader(resp *http.Response, now time.Time) (time.Duration, bool) {
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// isSecondaryLimit reports whether an error body is GitHub's secondary
// rate limit, by its documentation_url as go-github checks it. The body is
// put back for the caller.
func isSecondaryLimit(resp *http.Response) bool {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return false
	}
	var body struct {
		DocumentationURL string `json:"documentation_url"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return false
	}
	for _, anchor := range []string{"#abuse-rate-limits", "#secondary-rate-limits", "#about-secondary-rate-limits"} {
		if strings.HasSuffix(body.DocumentationURL, anchor) {
			return true
		}
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
