package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/chromiumtest"
)

// serve builds a site of in and serves it.
func serve(t *testing.T, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		data, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(name, ".html"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		case strings.HasSuffix(name, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
		case strings.HasSuffix(name, ".css"):
			w.Header().Set("Content-Type", "text/css")
		case strings.HasSuffix(name, ".json"):
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// scripts ran, and the console messages Chromium logged.
func dumpDOM(t *testing.T, bin, url string, extra ...string) (dom, console string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--window-size=1280,1600",
		"--virtual-time-budget=10000"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	var msgs []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "CONSOLE") {
			msgs = append(msgs, line)
		}
	}
	return string(out), strings.Join(msgs, "\n")
}

// TestBrowser loads the index and a suite page in a real headless
// Chromium: no console message, no error shown, charts drawn, and the
// filter (from the URL) leaves the matching series only.
func TestBrowser(t *testing.T) {
	bin := chromiumtest.Find(t)
	o := DefaultOptions()
	o.RepoURL, o.Branch = "https://github.com/o/r", "main"
	files, err := Build(synthetic(2, 8, 300), o)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, files)
	dom, console := dumpDOM(t, bin, srv.URL+"/index.html", "--dump-dom")
	if console != "" || strings.Contains(dom, `id="errors"`) || !strings.Contains(dom, `href="suite0-`) {
		t.Errorf("index: console %q\n%s", console, dom)
	}
	page := "/" + Slug("suite0") + ".html"
	dom, console = dumpDOM(t, bin, srv.URL+page, "--dump-dom")
	if console != "" || strings.Contains(dom, `id="errors"`) {
		t.Errorf("suite page: console %q, DOM:\n%.2000s", console, dom)
	}
	if n := strings.Count(dom, `class="line"`); n != 8 {
		t.Errorf("suite page: %d charts drawn, want 8", n)
	}
	if !strings.Contains(dom, `class="regression"`) || !strings.Contains(dom, `href="https://github.com/o/r/commit/`) {
		t.Error("suite page: no change point marked or no commit link")
	}
	dom, console = dumpDOM(t, bin, srv.URL+page+"?q=kernel3", "--dump-dom")
	if console != "" || !strings.Contains(dom, `<span id="count">1 of 8 series</span>`) {
		t.Errorf("filtered page: console %q, count %q", console, regexp.MustCompile(`<span id="count">[^<]*</span>`).FindString(dom))
	}
	if hidden := strings.Count(dom, " hidden=\"\""); hidden != 7 {
		t.Errorf("filtered page: %d cards hidden, want 7", hidden)
	}
}
