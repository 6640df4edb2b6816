// Package runner runs perfgate's suites and produces results documents: the
// built-in GPU and host suites, the suites a .perfgate.yml declares (with
// its prepare commands), rounds (every suite in its own perfgate process,
// in a rotated order), several GPUs at once (one worker process per GPU,
// results merged), perfgate doctor's checks of the GPU's state before
// a run, and, with --reference torch, the built-in suites' PyTorch
// references through the Python harness (runner/torchref owns which).
//
// A suite is a named set of benchmarks that run together; its name is the
// first part of each of its benchmarks' keys (suite/name). kernels defines
// the built-in suites; a .perfgate.yml declares suites of three kinds:
// command (a user's tool, run by tracker/suites), kernel (a user's CUDA
// kernel) and builtin (a built-in suite under the configuration's name).
// "mode" is only ever a benchmark's measurement mode (its mode= parameter:
// cold, batch, host, gpu), never a kind of run.
//
// The GPU is opened in one place, the Runner's Opener (kernels.Open unless
// a test replaces it), for built-in runs, kernel and builtin suites, the
// pre-run checks and perfgate doctor alike; the runner needs of it only
// the GPU interface it declares, which *kernels.Session implements.
//
// It owns how a run is carried out, not what it is judged against: it
// imports kernels, tracker/config, tracker/suites and tracker/model, and
// never cmd, the stores or the GitHub API. It prints nothing itself:
// progress and messages go to the Log writer its caller gives, and errors
// come back typed (model.InputError for bad input, model.InfraError for
// failures of the GPU, a child process or the file system).
package runner
