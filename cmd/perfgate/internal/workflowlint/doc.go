// Package workflowlint holds the test that lints action.yml and every
// workflow file of the repository (.github/workflows, examples/workflows)
// with actionlint, so .ci/run catches a broken workflow before GitHub does.
// It has no code of its own.
package workflowlint
