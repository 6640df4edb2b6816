package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
)

// TestActionConfirmEndToEnd runs the built action on pull requests whose
// suite (a command suite of a .perfgate.yml) is 25% slower in its first
// processes: slow.txt holds how many of the next processes are slow. A
// slowdown of the first process alone is re-run, not confirmed, and the
// check passes; a slowdown that stays is confirmed and fails the check;
// with confirm: false the first process alone fails it.
func TestActionConfirmEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	fake := fakegithub.New(t, e2eToken)
	r := &e2eRunner{bin: buildPerfgate(t), dir: dir, storeDir: filepath.Join(dir, "store"), fake: fake}
	cfg := filepath.Join(dir, ".perfgate.yml")
	yml := `version: 1
suites:
  - name: k
    command:
      run: v=100; s=$(cat slow.txt); if [ "$s" -gt 0 ]; then v=125; echo $((s - 1)) > slow.txt; fi; for i in 0 1 2 3 4 5 6 7 8 9; do echo "BenchmarkX-2 10 $((v + i % 4)) ns/op"; echo "BenchmarkY-2 10 $((50 + i % 3)) ns/op"; done
      format: gotest
`
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".perfgate.yml", yml)
	write("slow.txt", "0")
	for range 3 {
		res := r.run(t, "push", "push.json", "refs/heads/master", map[string]string{"config": cfg})
		if res.code != 0 || strings.Count(res.stderr, "recorded run ") != 3 {
			t.Fatalf("push: exit %d, want 0 and 3 rounds recorded\n%s", res.code, res.stderr)
		}
	}
	tests := []struct {
		name, slow    string
		inputs        map[string]string
		code          int
		verdict, want string
		status        string
	}{
		// Not confirmed is inconclusive under the default policy, neutral: success, never "pass" (issue 27).
		{"one slow process: re-run, not confirmed, inconclusive", "1", map[string]string{"rounds": "1"}, 0, "inconclusive",
			"#### 🔁 Confirmation (0 held, 1 not confirmed)", "success"},
		{"inconclusive: pass passes it", "1", map[string]string{"rounds": "1", "inconclusive": "pass"}, 0, "pass",
			"#### 🔁 Confirmation (0 held, 1 not confirmed)", "success"},
		{"slow in every process: confirmed, fail", "100", nil, 1, "fail",
			"#### 🔁 Confirmation (1 held, 0 not confirmed)", "failure"},
		{"confirm: false fails on the first process", "1", map[string]string{"rounds": "1", "confirm": "false"}, 1, "fail",
			"", "failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write("slow.txt", tt.slow)
			inputs := map[string]string{"config": cfg}
			for k, v := range tt.inputs {
				inputs[k] = v
			}
			res := r.run(t, "pull_request", "pull_request.synchronize.json", "refs/pull/2/merge", inputs)
			if res.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", res.code, tt.code, res.stdout, res.stderr)
			}
			if out := outputs(t, res.output); out["verdict"] != tt.verdict {
				t.Errorf("verdict %q, want %q", out["verdict"], tt.verdict)
			}
			body := fake.Comments("Codertocat", "Hello-World", e2ePR)[0].Body
			for _, doc := range []string{body, res.summary} {
				if tt.want == "" && strings.Contains(doc, "Confirmation") || !strings.Contains(doc, tt.want) {
					t.Errorf("the comment or summary lacks %q (or confirms with confirm: false):\n%s", tt.want, doc)
				}
			}
			if tt.want != "" && (!strings.Contains(body, "<code>k/BenchmarkX</code> | +2") || !strings.Contains(res.stderr, "re-running k in 3 fresh rounds")) {
				t.Errorf("the comment does not name the re-run benchmark, or stderr the re-run:\n%s\n%s", body, res.stderr)
			}
			sts := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)
			if last := sts[len(sts)-1]; last.State != tt.status {
				t.Errorf("status %s, want %s", last.State, tt.status)
			}
		})
	}
}
