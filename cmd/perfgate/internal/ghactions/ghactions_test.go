package ghactions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func newJob(t *testing.T) (*Job, *bytes.Buffer, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{
		"INPUT_GITHUB-TOKEN":  " tok ",
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
	var log bytes.Buffer
	return New(func(k string) string { return vars[k] }, &log), &log, vars
}

func TestLog(t *testing.T) {
	j, log, _ := newJob(t)
	if got := j.Input("github-token"); got != "tok" {
		t.Errorf("Input(github-token) = %q, want tok", got)
	}
	j.Mask([]string{"s3cret"})
	j.Group("suite gemm")
	j.EndGroup()
	j.Annotate("warning", "", "noisy")
	j.Annotate("warning", "perfgate pre-run check", "GPU is hot")
	j.Annotate("error", "perfgate refused a fork", "fork")
	want := "::add-mask::s3cret\n::group::suite gemm\n::endgroup::\n::warning::noisy\n" +
		"::warning title=perfgate pre-run check::GPU is hot\n::error title=perfgate refused a fork::fork\n"
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log, want)
	}
}

func TestFiles(t *testing.T) {
	j, _, vars := newJob(t)
	j.ReportPath = filepath.Join(t.TempDir(), "report.md")
	j.AddStepSummary("## verdict\n")
	if err := j.SetOutputs([][2]string{{"verdict", "pass"}}); err != nil {
		t.Fatal(err)
	}
	if err := j.WriteReport("# report\n"); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{vars["GITHUB_STEP_SUMMARY"]: "## verdict", vars["GITHUB_OUTPUT"]: "verdict", j.ReportPath: "# report"} {
		if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %q, %v; want it to hold %q", filepath.Base(path), b, err, want)
		}
	}
	j.ReportPath = filepath.Join(t.TempDir(), "missing", "report.md")
	var ie *model.InfraError
	if err := j.WriteReport("x"); !errors.As(err, &ie) {
		t.Errorf("WriteReport into a missing folder = %v, want an infrastructure error", err)
	}
}
