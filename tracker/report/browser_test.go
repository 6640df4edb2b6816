package report

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/chromiumtest"
)

// commentWidth is the width of a pull-request comment's body on GitHub
// (a maximised desktop window): the report must read at this width.
const commentWidth = 780

// measure is run in the page after the Markdown is rendered: it opens every
// <details>, then reports each table wider than the comment (GitHub's CSS
// makes it scroll, cutting off the last columns) and each cell of a numeric
// column whose text breaks over lines ("3.3e-" / "08").
const measure = `
document.querySelectorAll('details').forEach(d => d.open = true);
const text = ['benchmark', 'why', 'verdict, note', 'outcome', 'unit', ''];
const problems = [];
document.querySelectorAll('table').forEach(t => {
  const heads = [...t.rows[0].cells].map(c => c.innerText.trim());
  // Every table must fit, long words included: perfgate breaks them
  // (breakLong), and report.Redact finds secrets across the breaks.
  if (t.scrollWidth > t.clientWidth + 1)
    problems.push('table [' + heads.join(' | ') + '] is ' + t.scrollWidth + ' px wide, ' + t.clientWidth + ' px shown');
  if (heads[0] === '') return; // the environment table: free text
  for (const row of [...t.rows].slice(1)) for (const td of row.cells) {
    if (text.includes(heads[td.cellIndex])) continue;
    const r = document.createRange();
    r.selectNodeContents(td);
    const lines = new Set([...r.getClientRects()].map(x => Math.round(x.bottom)));
    // The only breaks allowed: after the arrow of "1.046 µs → 1.306 µs"
    // and the ellipsis of a confidence interval.
    const most = /→| CI/.test(heads[td.cellIndex]) ? 2 : 1;
    if (lines.size > most) problems.push('cell "' + td.innerText + '" of column ' + heads[td.cellIndex] + ' wraps over ' + lines.size + ' lines');
  }
});
document.getElementById('problems').textContent = JSON.stringify(problems);
`

// page is an HTML page that renders md with markdown-it (a CommonMark and
// GFM-tables renderer) in GitHub's Markdown CSS (github-markdown-css 5.9.0,
// both vendored in testdata/github), commentWidth wide.
func page(t *testing.T, md string) string {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "github", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	src, _ := json.Marshal(md)
	return `<!doctype html><html><head><meta charset="utf-8"><style>` + read("github-markdown-light.css") +
		`body{margin:0;background:#fff} .markdown-body{box-sizing:border-box;width:` + itoa(commentWidth) + `px;padding:16px}</style>` +
		`<script>` + read("markdown-it.umd.min.js") + `</script></head><body><article class="markdown-body" id="out"></article>` +
		`<pre id="problems">not measured</pre><script>
document.getElementById('out').innerHTML = markdownit({html: true}).render(` + strings.ReplaceAll(string(src), "</", `<\/`) + `);
` + measure + `</script></body></html>`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCommentInBrowser renders the golden PR comments as GitHub shows them
// at its comment width in headless Chromium: no table wider than the
// comment, no number broken over two lines (issue 11, defect 8). With
// PERFGATE_SCREENSHOT_DIR set it saves a screenshot of each.
func TestCommentInBrowser(t *testing.T) {
	bin := chromiumtest.Find(t)
	for _, name := range []string{"mixed", "clean", "confirmed", "incomparable", "gotest", "nasty", "longwords"} {
		t.Run(name, func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join("testdata", name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			html := filepath.Join(t.TempDir(), name+".html")
			if err := os.WriteFile(html, []byte(page(t, string(md))), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := runChromium(t, bin, "file://"+html, "--dump-dom")
			m := regexp.MustCompile(`(?s)<pre id="problems">(.*?)</pre>`).FindStringSubmatch(dom)
			if m == nil || !strings.HasPrefix(m[1], "[") {
				t.Fatalf("the page did not render and measure: %.500s", dom)
			}
			var problems []string
			if err := json.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(m[1], "&quot;", `"`), "&lt;", "<"), "&amp;", "&")), &problems); err != nil {
				t.Fatalf("%v: %s", err, m[1])
			}
			for _, p := range problems {
				t.Errorf("testdata/%s.md at %d px: %s", name, commentWidth, p)
			}
			if dir := os.Getenv("PERFGATE_SCREENSHOT_DIR"); dir != "" {
				runChromium(t, bin, "file://"+html, "--screenshot="+filepath.Join(dir, name+".png"))
			}
		})
	}
}

func runChromium(t *testing.T, bin, url string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--window-size=" + itoa(commentWidth) + ",4000", "--hide-scrollbars",
		"--allow-file-access-from-files", "--virtual-time-budget=5000"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return string(out)
}
