-- perfgate history schema, version 4: re-baseline points.
--
-- perfgate baseline reset GLOB records one row: the runs of repo (empty:
-- every repository) started before at stop feeding the baseline and the
-- run-to-run spread of the benchmarks the glob matches ("suite/name",
-- model.MatchGlob). The runs stay, for trend. who and reason are the audit
-- trail.
create table baseline_resets (
    id     bigint generated always as identity primary key,
    repo   text not null default '',
    glob   text not null check (glob <> ''),
    at     timestamptz not null,
    who    text not null default '',
    reason text not null default ''
);
comment on table baseline_resets is 're-baseline points: older runs of the matching benchmarks feed neither baseline nor spread';
