-- perfgate history schema, version 3: a benchmark's samples live in its
-- run_benchmarks row.
--
-- Version 2 kept them in a second table (samples: one float8[] per run and
-- benchmark), so recording a run of 10^5 benchmarks wrote 2 x 10^5 rows:
-- a second COPY, a second primary-key index, and a foreign key checked row
-- by row. Now run_benchmarks.vals holds them (NULL when the benchmark has
-- none), and the view samples answers ad-hoc SQL written for version 2.
--
-- run_benchmarks.benchmark_id no longer has a foreign key: checking it
-- locked every benchmarks row a run names (FOR KEY SHARE, a WAL record per
-- row, 10^5 per wide run). The rows it guarded are never deleted (prune
-- keeps them; only record inserts them, committed before any run names
-- them), and the trigger benchmarks_kept now refuses to delete them or
-- change their ids. docs/database.md and docs/speed.md ("Third pass:
-- Postgres") give the measurements.
--
-- Upgrading rewrites every run_benchmarks row once; autovacuum (or
-- "vacuum analyze run_benchmarks") restores index-only trend scans after.
alter table run_benchmarks add column vals double precision[];
comment on column run_benchmarks.vals is 'every raw sample, in recorded order; NULL when the benchmark has none (n = 0)';
update run_benchmarks rb set vals = s.vals
    from samples s
    where s.run_pk = rb.run_pk and s.benchmark_id = rb.benchmark_id;
drop table samples;
create view samples as
    select run_pk, benchmark_id, vals from run_benchmarks where vals is not null;
comment on view samples is 'version 2''s samples table, kept for ad-hoc SQL: the vals of run_benchmarks';

alter table run_benchmarks drop constraint run_benchmarks_benchmark_id_fkey;
create function benchmarks_kept() returns trigger language plpgsql as $$
begin
    raise exception 'benchmarks rows are never deleted and keep their ids: run_benchmarks refers to them'
        using errcode = 'restrict_violation';
end $$;
create trigger benchmarks_kept before delete or truncate or update of id on benchmarks
    for each statement execute function benchmarks_kept();
