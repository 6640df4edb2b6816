// Package actionjob is the runner's side of perfgate action: a Job
// measures what the action judges (the results-file inputs, the config's
// suites run here after the pre-run checks and with unchanged kernels
// skipped, or an interleaved A/B of the merge base and the head) and
// re-runs regressions before they fail the job. It implements
// tracker/action's Measurer; the decisions around it (judging, reporting,
// GitHub, recording) stay in tracker/action and tracker/check.
//
// It reads results files, runs suites through runner and ab, and reads
// the history for skip-unchanged-kernels through the func it is given; it
// never prints except through the writers and the log it is given.
package actionjob
