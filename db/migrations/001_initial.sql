-- perfgate history schema, version 1.
--
-- A run (one results-v1 document) is one row of runs, one row of
-- run_benchmarks per benchmark, and one row of samples per benchmark that has
-- samples. Runs are written in one transaction, so a run is visible entirely
-- or not at all. See docs/database.md.

-- A testbed is a GPU fingerprint. label, gpu, driver_major and cuda decide
-- whether two runs may be compared (model.Comparable: an empty field on
-- either side does not block); driver and nvrtc are kept for reports.
create table testbeds (
    id           bigint generated always as identity primary key,
    label        text not null,
    gpu          text not null default '',
    driver       text not null default '',
    driver_major text not null generated always as (split_part(driver, '.', 1)) stored,
    cuda         text not null default '',
    nvrtc        text not null default '',
    unique (label, gpu, driver, cuda, nvrtc)
);
comment on table testbeds is 'GPU fingerprints; label, gpu, driver_major and cuda decide comparability';

-- A run is the run block of a results-v1 document.
create table runs (
    pk             bigint generated always as identity primary key,
    id             text not null unique,
    content_sha256 bytea not null,
    repo           text not null,
    commit         text not null,
    branch         text not null,
    pr             integer,
    event          text not null,
    testbed_id     bigint not null references testbeds (id),
    started_at     timestamptz not null,
    run_group      text,
    env            jsonb not null default '{}',
    status         text not null check (status in ('ok', 'partial', 'failed')),
    recorded_at    timestamptz not null default now(),
    -- Pull-request runs are stored but never serve as baseline.
    baseline_eligible boolean not null generated always as (pr is null and event <> 'pull_request' and status <> 'failed') stored
);
comment on column runs.status is 'ok: every benchmark has samples; partial: some reported an error; failed: none has samples';
comment on column runs.content_sha256 is 'SHA-256 of the canonical JSON of the results document: re-recording the same id with the same content is a no-op';

-- The baseline query: latest runs of a branch on given testbeds.
create index runs_baseline on runs (branch, testbed_id, started_at desc, id desc)
    where baseline_eligible;
-- The baseline query's second step: every shard of the run groups (sharded
-- jobs) it chose.
create index runs_group on runs (repo, run_group)
    where run_group is not null and baseline_eligible;
-- Trend (--since) and prune (--older-than).
create index runs_started_at on runs (started_at);

-- A benchmark is a series: the same suite and name in the same unit and
-- direction. params are those first recorded; a run whose params differ
-- keeps its own in run_benchmarks.params.
create table benchmarks (
    id     bigint generated always as identity primary key,
    suite  text not null,
    name   text not null,
    unit   text not null,
    better text not null check (better in ('lower', 'higher')),
    params jsonb not null default '{}',
    unique (suite, name, unit, better)
);
create index benchmarks_name on benchmarks (name text_pattern_ops);

-- One benchmark's entry in one run, with its summary precomputed from the
-- raw samples at ingest (median: middle sample or mean of the middle two;
-- cv: sample standard deviation over mean) so trends never read samples.
create table run_benchmarks (
    run_pk       bigint not null references runs (pk) on delete cascade,
    benchmark_id bigint not null references benchmarks (id),
    ord          integer not null,
    n            integer not null,
    median       double precision,
    cv           double precision,
    params       jsonb,
    metrics      jsonb,
    info         jsonb,
    summary_only boolean not null default false,
    error        text,
    primary key (run_pk, benchmark_id)
);
-- The trend query: one benchmark's points across runs, index-only.
create index run_benchmarks_trend on run_benchmarks (benchmark_id, run_pk) include (n, median, cv);

-- All raw samples of one benchmark in one run, in recorded order. One array
-- per row costs 8 bytes a sample (a row per sample costs ~40); unnest(vals)
-- turns it back into rows for ad-hoc SQL.
create table samples (
    run_pk       bigint not null,
    benchmark_id bigint not null,
    vals         double precision[] not null,
    primary key (run_pk, benchmark_id),
    foreign key (run_pk, benchmark_id) references run_benchmarks (run_pk, benchmark_id) on delete cascade
);

-- A stored comparison: which candidate run was judged against which
-- baseline runs, with which options, and the verdicts. Runs are named by id
-- (no foreign key) so the record outlives pruning.
create table comparisons (
    id               bigint generated always as identity primary key,
    candidate_run_id text not null,
    created_at       timestamptz not null default now(),
    threshold        double precision not null,
    alpha            double precision not null,
    correction       text not null,
    failed           boolean not null,
    summary          jsonb not null default '{}'
);
create index comparisons_candidate on comparisons (candidate_run_id, created_at desc);

create table comparison_baselines (
    comparison_id bigint not null references comparisons (id) on delete cascade,
    position      integer not null,
    run_id        text not null,
    commit        text not null,
    branch        text not null,
    testbed       text not null,
    started_at    timestamptz not null,
    primary key (comparison_id, position)
);

create table comparison_results (
    comparison_id    bigint not null references comparisons (id) on delete cascade,
    suite            text not null,
    name             text not null,
    unit             text not null,
    better           text not null,
    verdict          text not null,
    n_baseline       integer not null,
    n_candidate      integer not null,
    baseline_median  double precision,
    candidate_median double precision,
    change           double precision,
    ci_low           double precision,
    ci_high          double precision,
    p_value          double precision,
    p_adjusted       double precision,
    threshold        double precision,
    reason           text not null default '',
    primary key (comparison_id, suite, name)
);
