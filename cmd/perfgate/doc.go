/*
Perfgate is a GPU performance gate for pull requests. It runs GPU benchmark
suites, compares the results against the main branch's history with
Mann-Whitney U tests, reports one sticky PR comment, and fails the check when
something got more than 10% slower.

Usage:

	perfgate <command> [flags]

Commands:

	run      run built-in GPU suites, or a .perfgate.yml (--config); --list without a GPU
	doctor   report the GPU, driver, CUDA and NVRTC state and what would make timings unreliable
	compare  compare OLD NEW (results files, or go test -bench text and the other ingest formats)
	record   store runs in the history (embedded store, or Postgres with --db)
	check    judge a candidate against the baseline branch's stored history
	trend    one benchmark's history over time, with step changes (--changes: only those)
	summary  a SUMMARY.md of results files: suites, environment, mean/median/std/p95/p99/min/max
	site     a static HTML dashboard of the history (a page per suite, trends, change points)
	chart    PNG/SVG charts: trend (band, steps) or compare (change and CI per benchmark)
	prune    delete old history, never the latest baseline runs of a testbed
	baseline reset GLOB: earlier history of those benchmarks stops feeding the baseline (kept for trend)
	migrate  apply the Postgres schema migrations
	upload   send runs spooled while the database was unreachable
	ingest   convert another tool's benchmark output to results JSON
	ab       interleaved A/B of the merge base and HEAD on one machine
	action   the GitHub Action entry point (configured by INPUT_* and GITHUB_*)
	demo     judge the example PR run against the example history
	version  print the version and whether CUDA was built in
	worker   internal: one worker process of the sharing suite (perfgate run starts it)

"perfgate <command> --help" lists a command's flags. Flags take their
defaults from PERFGATE_* environment variables where a command says so
(PERFGATE_DATABASE_URL, PERFGATE_STORE, PERFGATE_THRESHOLD, ...).

Exit codes:

	0  no regression (or the command succeeded)
	1  at least one regression (the check failed)
	2  bad usage or bad input (the message names the flag, file or field)
	3  infrastructure failure (database, GPU, GitHub API), or an environment
	   not fit to measure in (run --strict refuses, doctor --strict warns)
*/
package main
