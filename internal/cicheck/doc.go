// Package cicheck keeps .ci/run true to the test suite: its test finds every
// test that skips with -short (end-to-end, act, and numeric sweep tests,
// which .ci/run's race-detector step skips) and checks that .ci/run's
// no-race step names it, that each go test there has an explicit -timeout,
// and that it leaves the machine's apt configuration alone. It has no code.
package cicheck
