package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

// maxShards bounds the shards input: a matrix holds at most 256 jobs.
const maxShards = 256

// readShardInputs reads shards (how many jobs the matrix has; default 1,
// not sharded) and shard (this job's index, 0 … shards-1): in a matrix,
// ${{ strategy.job-total }} and ${{ strategy.job-index }}.
func (o *actionOptions) readShardInputs(gha *githubactions.Action, e *env) error {
	n, i := strings.TrimSpace(gha.GetInput("shards")), strings.TrimSpace(gha.GetInput("shard"))
	o.shard = action.Shard{Count: 1}
	if n == "" {
		if i != "" && i != "0" {
			return usageError("shard: %q given without shards (the number of shards, e.g. ${{ strategy.job-total }})", i)
		}
		return nil
	}
	count, err := strconv.Atoi(n)
	if err != nil || count < 1 || count > maxShards {
		return usageError("shards: %q is not an integer from 1 to %d", n, maxShards)
	}
	idx, err := strconv.Atoi(first(i, "-"))
	if err != nil || idx < 0 || idx >= count {
		return usageError("shard: %q is not an integer from 0 to %d (this job's index, e.g. ${{ strategy.job-index }})", i, count-1)
	}
	o.shard = action.Shard{Index: idx, Count: count}
	// The shards' runs share a run group, so a sharded job's history is one
	// job to the baseline (model.BaselineQuery counts jobs, not runs).
	o.shardGroup = fmt.Sprintf("gha-%s-%s-%s", e.Getenv("GITHUB_RUN_ID"), first(e.Getenv("GITHUB_RUN_ATTEMPT"), "1"), e.Getenv("GITHUB_JOB"))
	return nil
}

// groupShards puts the runs measured here into the sharded job's group.
func (o *actionOptions) groupShards(runs []*model.Results) {
	if o.shard.Count <= 1 {
		return
	}
	for _, r := range runs {
		r.Run.Group = o.shardGroup
	}
}
