-- perfgate history schema, version 2: the reports of a sharded job's shards.
--
-- Each shard of a sharded pull-request job (the action's shards/shard
-- inputs) stores its comparison here, and the PR comment and the status are
-- rebuilt from every shard of the set found here (tracker/action/shards.go).
-- set_key names the pull request's head commit and the workflow's job; a
-- shard's newer report replaces its older one. data is the action's own
-- encoding, opaque to the database.
create table shard_reports (
    set_key     text not null,
    shard       integer not null check (shard >= 0),
    shards      integer not null check (shards > shard),
    data        bytea not null,
    recorded_at timestamptz not null default now(),
    primary key (set_key, shard)
);
comment on table shard_reports is 'comparisons of the shards of one sharded pull-request job, merged into one comment';
