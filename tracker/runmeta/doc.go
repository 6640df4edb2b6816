// Package runmeta owns where a run's metadata comes from: the run block of
// a results document (repository, commit, branch, event, testbed, start
// time) filled from what the user gave, then the GitHub Actions
// environment (GITHUB_*), then the git checkout, and the one git helper
// perfgate uses to ask the checkout.
//
// It reads the environment only through the getenv function its caller
// passes, and never prints. It imports tracker/model and the standard
// library only.
package runmeta
