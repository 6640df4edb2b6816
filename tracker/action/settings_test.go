package action

import (
	"github.com/perfgate/perfgate/tracker/compare"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

var testDefaults = Defaults{StoreDir: ".perfgate", SpoolDir: ".perfgate-spool", GitHubTimeout: time.Minute, DBTimeout: 30 * time.Second,
	Rounds: 1, MaxRounds: 100, PreRunPolicies: []string{"warn", "strict", "off"}}

func readTestSettings(inputs, env map[string]string) (*Settings, error) {
	return ReadSettings(func(k string) string { return inputs[k] }, func(k string) string { return env[k] }, testDefaults)
}

func TestReadSettingsDefaults(t *testing.T) {
	s, err := readTestSettings(nil, map[string]string{"RUNNER_TEMP": "/tmp/r"})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case s.Baseline != BaselineHistory || s.Inputs.Interleaved:
		t.Errorf("baseline %q (interleaved %v), want history", s.Baseline, s.Inputs.Interleaved)
	case !s.Inputs.FailOnRegression || s.Inputs.Record || !s.Confirm:
		t.Errorf("booleans %+v confirm %v: want fail-on-regression and confirm on, record off", s.Inputs, s.Confirm)
	case s.StoreDir != ".perfgate" || s.SpoolDir != ".perfgate-spool" || s.ReportPath != "/tmp/r/perfgate-report.md":
		t.Errorf("paths %q %q %q", s.StoreDir, s.SpoolDir, s.ReportPath)
	case s.GitHubTimeout != time.Minute || s.DBTimeout != 30*time.Second || s.Rounds != 1 || s.PreRun != "warn":
		t.Errorf("timeouts %v %v, rounds %d, pre-run %q: want the defaults", s.GitHubTimeout, s.DBTimeout, s.Rounds, s.PreRun)
	case s.Shard != (Shard{Count: 1}) || s.Comment != CommentAlways || s.Notify != NotifyOff || len(s.Warnings) != 0:
		t.Errorf("shard %+v comment %q notify %q warnings %q", s.Shard, s.Comment, s.Notify, s.Warnings)
	}
}

func TestReadSettings(t *testing.T) {
	tests := []struct {
		name   string
		inputs map[string]string
		env    map[string]string
		check  func(*Settings) bool
	}{
		{"baseline interleaved", map[string]string{"baseline": "interleaved", "rounds": "7"}, nil,
			func(s *Settings) bool {
				return s.Baseline == BaselineInterleaved && s.Inputs.Interleaved && s.Rounds == 7
			}},
		{"mode, the deprecated name, warns", map[string]string{"mode": "interleaved"}, nil,
			func(s *Settings) bool {
				return s.Baseline == BaselineInterleaved && len(s.Warnings) == 1 && strings.Contains(s.Warnings[0], "baseline: interleaved")
			}},
		{"tool cache holds store and spool", nil, map[string]string{"RUNNER_TOOL_CACHE": "/c"},
			func(s *Settings) bool { return s.StoreDir == "/c/perfgate/store" && s.SpoolDir == "/c/perfgate/spool" }},
		{"store-dir wins over the tool cache", map[string]string{"store-dir": "s"}, map[string]string{"RUNNER_TOOL_CACHE": "/c", "PERFGATE_SPOOL": "sp"},
			func(s *Settings) bool { return s.StoreDir == "s" && s.SpoolDir == "sp" }},
		{"shards", map[string]string{"shards": "4", "shard": "2"}, map[string]string{"GITHUB_RUN_ID": "9", "GITHUB_JOB": "bench"},
			func(s *Settings) bool {
				return s.Shard == (Shard{Index: 2, Count: 4}) && s.ShardGroup == "gha-9-1-bench"
			}},
		{"timeouts from the environment, seconds as integers", map[string]string{"database-timeout": "5"}, map[string]string{"PERFGATE_GITHUB_TIMEOUT": "2m"},
			func(s *Settings) bool { return s.GitHubTimeout == 2*time.Minute && s.DBTimeout == 5*time.Second }},
		{"threshold and alpha given", map[string]string{"threshold": "5%", "alpha": "0.05", "results-file": "a.json, b.json"}, nil,
			func(s *Settings) bool {
				return s.Compare.Threshold == 0.05 && s.Compare.Alpha == 0.05 && s.Explicit["threshold"] && s.Explicit["alpha"] && len(s.ResultFiles) == 2
			}},
		{"inconclusive defaults to neutral, not explicit", nil, nil,
			func(s *Settings) bool {
				return s.Compare.Inconclusive == compare.InconclusiveNeutral && !s.Explicit["inconclusive"]
			}},
		{"inconclusive given", map[string]string{"inconclusive": "fail"}, nil,
			func(s *Settings) bool {
				return s.Compare.Inconclusive == compare.InconclusiveFail && s.Explicit["inconclusive"]
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := readTestSettings(tt.inputs, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(s) {
				t.Errorf("settings %+v", s)
			}
		})
	}
}

func TestReadSettingsErrors(t *testing.T) {
	tests := []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{"threshold": "ten"}, `threshold: "ten" is not a percentage`},
		{map[string]string{"alpha": "1"}, `alpha: "1" is not a number in range (0 to 1)`},
		{map[string]string{"alpha": "nan"}, `alpha: "nan" is not a number`},
		{map[string]string{"record": "1"}, `record: "1" is not true or false`},
		{map[string]string{"inconclusive": "green"}, `inconclusive: "green" is not neutral, pass, fail`},
		{map[string]string{"pre-run-checks": "refuse"}, `pre-run-checks: "refuse" is not warn, strict, off`},
		{map[string]string{"comment": "sometimes"}, `comment: "sometimes" is not always, on-change or never`},
		{map[string]string{"baseline": "ab"}, `baseline: "ab" is not history or interleaved`},
		{map[string]string{"mode": "ab"}, `mode: "ab" is not history or interleaved`},
		{map[string]string{"mode": "history", "baseline": "interleaved"}, `mode: "history", but baseline says "interleaved": mode is the deprecated name of baseline`},
		{map[string]string{"baseline": "interleaved", "results-file": "r.json"}, "baseline: interleaved runs the suites of both sides itself"},
		{map[string]string{"rounds": "101"}, `rounds: "101" is not an integer from 1 to 100`},
		{map[string]string{"shard": "1"}, `shard: "1" given without shards`},
		{map[string]string{"shards": "2", "shard": "2"}, `shard: "2" is not an integer from 0 to 1`},
		{map[string]string{"shards": "257"}, `shards: "257" is not an integer from 1 to 256`},
		{map[string]string{"github-timeout": "soon"}, `github-timeout: "soon" is not a positive duration`},
		{map[string]string{"database-timeout": "-1s"}, `database-timeout: "-1s" is not a positive duration`},
		{map[string]string{"filter": "gemm("}, "filter: error parsing regexp"},
		{map[string]string{"notify-changes": "email"}, `notify-changes: "email" is not off, commit-comment or issue`},
		{map[string]string{"dashboard-url": "https://x.io/a)[b](javascript:c"}, "dashboard-url:"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := readTestSettings(tt.inputs, nil)
			if !model.IsInputError(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want an input error containing %q", err, tt.want)
			}
		})
	}
}

// TestReadEvent: no GITHUB_EVENT_PATH is no event; a file is read as it
// is; a missing one is bad input naming the variable.
func TestReadEvent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(`{"number":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want, err string
	}{
		{"", "", ""},
		{p, `{"number":1}`, ""},
		{p + ".missing", "", "GITHUB_EVENT_PATH: open " + p + ".missing: no such file or directory"},
	} {
		got, err := (&Settings{EventPath: tc.path}).ReadEvent()
		if string(got) != tc.want || (err == nil) != (tc.err == "") || (err != nil && (err.Error() != tc.err || !model.IsInputError(err))) {
			t.Errorf("ReadEvent(%q) = %q, %v; want %q, %q", tc.path, got, err, tc.want, tc.err)
		}
	}
}

// TestLoadResultFiles: the filter input keeps the benchmarks of the
// suites it matches; one that matches none is bad input naming it; a bad
// file is bad input.
func TestLoadResultFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "r1", Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
		Event: model.EventPush, Testbed: "tb", StartedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		Benchmarks: []model.Benchmark{
			{Suite: "gemm", Name: "a", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}},
			{Suite: "softmax", Name: "b", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}},
		}}
	if err := resultsjson.WriteFile(p, r); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		files  []string
		filter string
		want   int    // benchmarks kept
		err    string // "": none
	}{
		{[]string{p}, "", 2, ""},
		{[]string{p}, "^gemm$", 1, ""},
		{[]string{p}, "^nothing$", 0, `filter: "^nothing$" matches no suite of the results files`},
		{[]string{filepath.Join(dir, "missing.json")}, "", 0, "missing.json"},
	} {
		s := &Settings{ResultFiles: tc.files}
		if tc.filter != "" {
			s.Filter = regexp.MustCompile(tc.filter)
		}
		runs, err := s.LoadResultFiles()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !model.IsInputError(err) {
				t.Errorf("%v %q: error %v, want input error %q", tc.files, tc.filter, err, tc.err)
			}
			continue
		}
		if err != nil || len(runs) != 1 || len(runs[0].Benchmarks) != tc.want {
			t.Errorf("%v %q: %v, %v; want %d benchmarks", tc.files, tc.filter, runs, err, tc.want)
		}
	}
}
