package model

import "time"

// A ShardReport is what one shard of a sharded job left for the others:
// its comparison, encoded by the action (Data is opaque to the stores),
// under the key of the shard set (the pull request's head commit and the
// workflow's job). A later report of the same shard replaces it.
type ShardReport struct {
	Set        string // the shard set's key
	Shard      int    // 0 … Shards-1
	Shards     int    // how many shards the set has
	Data       []byte
	RecordedAt time.Time // set by the store
}
