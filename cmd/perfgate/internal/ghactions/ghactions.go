// Package ghactions writes to the GitHub Actions job perfgate action runs
// in, through the Actions toolkit (github.com/sethvargo/go-githubactions):
// its inputs and masks, log groups and annotations (tracker/action.Log),
// the step summary, the outputs file and the report file
// (tracker/action.Files). tracker/action decides what to write; this
// package only knows how the runner reads it.
package ghactions

import (
	"io"
	"os"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Job is the job of one run of perfgate action.
type Job struct {
	gha    *githubactions.Action
	getenv func(string) string
	// ReportPath is the file WriteReport writes (the report input).
	ReportPath string
}

var (
	_ action.Log   = (*Job)(nil)
	_ action.Files = (*Job)(nil)
)

// New returns the job whose environment getenv reads, writing workflow
// commands to stdout (the job's log, as it is: perfgate's own commands).
func New(getenv func(string) string, stdout io.Writer) *Job {
	gha := githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(stdout))
	return &Job{gha: gha, getenv: getenv}
}

// Input returns the action input name (INPUT_NAME), trimmed.
func (j *Job) Input(name string) string { return j.gha.GetInput(name) }

// Mask has the runner hide each secret in the rest of the log.
func (j *Job) Mask(secrets []string) {
	for _, s := range secrets {
		j.gha.AddMask(s)
	}
}

// Group and EndGroup fold the log lines between them (action.Log).
func (j *Job) Group(title string) { j.gha.Group(title) }
func (j *Job) EndGroup()          { j.gha.EndGroup() }

// Annotate adds an error (level "error") or warning annotation to the run,
// titled unless title is "".
func (j *Job) Annotate(level, title, msg string) {
	g := j.gha
	if title != "" {
		g = g.WithFieldsMap(map[string]string{"title": title})
	}
	if level == "error" {
		g.Errorf("%s", msg)
		return
	}
	g.Warningf("%s", msg)
}

// AddStepSummary appends md to the job's summary (action.Files).
func (j *Job) AddStepSummary(md string) { j.gha.AddStepSummary(md) }

// SetOutputs writes the step's outputs to the file GITHUB_OUTPUT names
// (WriteOutputs: hostile values cannot forge other outputs).
func (j *Job) SetOutputs(pairs [][2]string) error {
	return WriteOutputs(j.getenv("GITHUB_OUTPUT"), pairs)
}

// WriteReport writes the Markdown report to ReportPath.
func (j *Job) WriteReport(md string) error {
	if err := os.WriteFile(j.ReportPath, []byte(md), 0o644); err != nil {
		return &model.InfraError{Op: "write the report " + j.ReportPath, Err: err}
	}
	return nil
}

// ReadEvent reads the webhook payload GITHUB_EVENT_PATH names (nil when
// it names none).
func (j *Job) ReadEvent() ([]byte, error) {
	path := j.getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &model.InputError{Msg: "GITHUB_EVENT_PATH: " + err.Error()}
	}
	return b, nil
}
