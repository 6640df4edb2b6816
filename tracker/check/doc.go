// Package check owns the decisions of 'perfgate check' and of the action's
// history baseline (baseline: history): which files are the candidates, which stored runs are
// their baseline (Query, applied by the stores through
// model.BaselineQuery), which settings a .perfgate.yml supplies
// (ApplyConfig), the verdict (Judge), the re-judging of regressions after a
// confirmation re-run (Confirm), and the record of a comparison a store
// keeps (Record).
//
// It reads the history through the small interfaces it declares, never
// prints, and returns input errors (model.InputError) and infrastructure
// errors (model.InfraError) for cmd to map to exit codes. It imports
// tracker packages and the standard library only: no store, no GitHub.
package check
