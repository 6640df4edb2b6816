-- perfgate history schema, version 5: regressions accepted on pull requests.
--
-- /perfgate accept GLOB [reason], a pull-request comment by a user with
-- write access, records one row: the benchmarks the glob matches
-- ("suite/name", model.MatchGlob) that regress on pull request pr of repo
-- pass the gate, shown as accepted. When the pull request merges, the push
-- that records the merge adds a baseline_resets row for each. who, reason
-- and comment_url are the audit trail; head_sha is the head accepted;
-- changes maps each regression the glob covered then ("suite/name") to its
-- change, which bounds what the acceptance passes later.
create table acceptances (
    id          bigint generated always as identity primary key,
    repo        text not null check (repo <> ''),
    pr          integer not null check (pr > 0),
    head_sha    text not null default '',
    glob        text not null check (glob <> ''),
    who         text not null check (who <> ''),
    reason      text not null default '',
    at          timestamptz not null,
    comment_url text not null default '',
    changes     jsonb not null default '{}'::jsonb check (jsonb_typeof(changes) = 'object')
);
create index acceptances_repo_pr on acceptances (repo, pr);
comment on table acceptances is 'regressions accepted on pull requests (/perfgate accept): audit trail, and the re-baseline on merge';
