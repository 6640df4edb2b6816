package check

import (
	"errors"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
)

func TestEnvQuery(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Query
		wantBad string // the setting of the error, "" for none
	}{
		{"defaults", nil, Query{Branch: "main", Jobs: 3}, ""},
		{"every variable", map[string]string{"PERFGATE_BASELINE_BRANCH": "trunk", "PERFGATE_BASELINE_JOBS": " 5 ", "PERFGATE_BASELINE_TESTBED": "gpu-a"},
			Query{Branch: "trunk", Jobs: 5, Testbed: "gpu-a"}, ""},
		{"jobs not an integer", map[string]string{"PERFGATE_BASELINE_JOBS": "five"}, Query{Branch: "main", Jobs: 3}, SetJobs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := EnvQuery(func(k string) string { return tt.env[k] })
			var se *compare.SettingError
			if q != tt.want || (tt.wantBad == "") != (err == nil) || (err != nil && (!errors.As(err, &se) || se.Setting != tt.wantBad)) {
				t.Errorf("EnvQuery = %+v, %v; want %+v, an error for %q", q, err, tt.want, tt.wantBad)
			}
		})
	}
}

func TestQueryCheck(t *testing.T) {
	tests := []struct {
		q       Query
		wantBad string
	}{
		{Query{Branch: "main", Jobs: 1}, ""},
		{Query{Branch: "main", Jobs: MaxJobs}, ""},
		{Query{Jobs: 3}, SetBranch},
		{Query{Branch: "main", Jobs: 0}, SetJobs},
		{Query{Branch: "main", Jobs: MaxJobs + 1}, SetJobs},
	}
	for _, tt := range tests {
		err := tt.q.Check()
		var se *compare.SettingError
		if (tt.wantBad == "") != (err == nil) || (err != nil && (!errors.As(err, &se) || se.Setting != tt.wantBad)) {
			t.Errorf("%+v.Check() = %v, want an error for %q", tt.q, err, tt.wantBad)
		}
	}
}

func TestSettingEnv(t *testing.T) {
	env := SettingEnv()
	for name, key := range map[string]string{SetJobs: "PERFGATE_BASELINE_JOBS", SetThreshold: "PERFGATE_THRESHOLD", SetHistory: "PERFGATE_HISTORY"} {
		if env[name] != key {
			t.Errorf("SettingEnv()[%q] = %q, want %q", name, env[name], key)
		}
	}
}
