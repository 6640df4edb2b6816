package compare

import (
	"fmt"
	"testing"
)

// TestPackJobs: packJobs groups per-run summaries by job, each job's in run
// order (the sums the spread takes depend on it), with a job that has none
// between others empty and none after the last.
func TestPackJobs(t *testing.T) {
	for _, tc := range []struct {
		name string
		logs []jobLog
		want string
	}{
		{"none", nil, "[]"},
		{"one run", []jobLog{{0, 1}}, "[[1]]"},
		{"a job a run", []jobLog{{0, 1}, {1, 2}, {2, 3}}, "[[1] [2] [3]]"},
		{"interleaved shards", []jobLog{{0, 1}, {1, 2}, {0, 3}, {2, 4}, {1, 5}}, "[[1 3] [2 5] [4]]"},
		{"a job without any", []jobLog{{2, 1}, {0, 2}, {2, 3}}, "[[2] [] [1 3]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := packJobs(tc.logs)
			if got := fmt.Sprint(js.all()); got != tc.want {
				t.Errorf("packJobs = %s, want %s", got, tc.want)
			}
			for j := range js.len() {
				if job := js.job(j); cap(job) != len(job) {
					t.Errorf("job %d has room for %d more: appending to it would overwrite the next", j, cap(job)-len(job))
				}
			}
		})
	}
}
