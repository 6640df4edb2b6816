// Package runner runs perfgate's suites and produces results documents: the
// built-in GPU and host suites, the suites a .perfgate.yml declares (with
// its prepare commands), rounds (every suite in its own perfgate process,
// in a rotated order), several GPUs at once (one worker process per GPU,
// results merged) and the pre-run checks of the GPU's state.
//
// It owns how a run is carried out, not what it is judged against: it
// imports kernels (the GPU harness, behind the GPU interface it declares),
// tracker/config, tracker/suites and tracker/model, and never cmd, the
// stores or the GitHub API. It prints nothing itself: progress and messages
// go to the Log writer its caller gives, and errors come back typed
// (model.InputError for bad input, model.InfraError for failures of the
// GPU, a child process or the file system).
package runner
