/*
Perfgate is a GPU performance gate for pull requests. It runs GPU benchmark
suites, compares the results against the main branch's history with
Mann-Whitney U tests, reports one sticky PR comment, and fails the check when
something got more than 10% slower.

Usage:

	perfgate <command> [flags]

Run "perfgate" alone for the list of commands, and "perfgate <command> --help"
for a command's flags. Flags take their defaults from PERFGATE_* environment
variables where a command says so.

Exit codes:

	0  no regression (or the command succeeded)
	1  at least one regression (the check failed)
	2  bad usage or bad input (the message names the flag, file or field)
	3  infrastructure failure (database, GPU, GitHub API)
*/
package main
