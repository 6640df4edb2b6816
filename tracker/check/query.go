package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// The baseline a check reads unless told otherwise: the latest DefaultJobs
// comparable jobs of DefaultBranch. A query pools at most MaxJobs
// (compare.BaselineSettings' range of baseline-jobs).
const (
	DefaultBranch = "main"
	DefaultJobs   = 3
)

// MaxJobs bounds a query's Jobs.
var MaxJobs = int(compare.Lookup(SetJobs).Max)

// QueryEnv names the variable each setting of the baseline query (by its
// flag name) defaults from (compare.BaselineSettings).
var QueryEnv = compare.Envs(compare.BaselineSettings)

// SettingEnv names the variable of each setting a .perfgate.yml may also
// supply (QueryEnv's and compare.SettingEnv's): a variable set, like a
// flag given, is the user's choice and wins over the file (ApplyConfig).
func SettingEnv() map[string]string {
	m := map[string]string{}
	for _, env := range []map[string]string{QueryEnv, compare.SettingEnv} {
		for name, key := range env {
			m[name] = key
		}
	}
	return m
}

// EnvQuery is the default query with the value getenv gives each QueryEnv
// variable in its place. A PERFGATE_BASELINE_JOBS that is not an integer
// leaves the default and is returned as a *compare.SettingError.
func EnvQuery(getenv func(string) string) (Query, error) {
	q := Query{Branch: DefaultBranch, Jobs: DefaultJobs, Testbed: getenv(QueryEnv[SetTestbed])}
	if v := getenv(QueryEnv[SetBranch]); v != "" {
		q.Branch = v
	}
	if v := getenv(QueryEnv[SetJobs]); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return q, &compare.SettingError{Setting: SetJobs, Msg: fmt.Sprintf("%q is not an integer", v)}
		}
		q.Jobs = n
	}
	return q, nil
}

// Check returns a *compare.SettingError for the first setting of q out of
// its range: an empty branch, or Jobs outside 1 to MaxJobs.
func (q Query) Check() error {
	switch {
	case q.Branch == "":
		return &compare.SettingError{Setting: SetBranch, Msg: "must not be empty"}
	case q.Jobs < 1 || q.Jobs > MaxJobs:
		return &compare.SettingError{Setting: SetJobs, Msg: fmt.Sprintf("must be between 1 and %d, got %d", MaxJobs, q.Jobs)}
	}
	return nil
}
