package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestRunCmdpathHost runs the host benchmarks of the cmdpath suite through
// perfgate run, as CI (no GPU) does, and checks the results file.
func TestRunCmdpathHost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the cmdpath host benchmarks (a few seconds)")
	}
	out := filepath.Join(t.TempDir(), "cmdpath.json")
	args := []string{"run", "--suite", "cmdpath", "--fast", "--max-time", "20ms", "--commit", strings.Repeat("a", 40), "--out", out}
	if kernels.CUDA {
		args = append(args, "--filter", "mode=host") // the GPU ones are tested with the GPU
	}
	code, _, errs := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, gpu := kernels.CountHostAndGPU([]string{"cmdpath"}, kernels.Options{})
	if want := fmt.Sprintf("skipping %d benchmarks that need the GPU: built without CUDA", gpu); !kernels.CUDA && !strings.Contains(errs, want) {
		t.Errorf("stderr does not say that the GPU benchmarks were skipped: %q", errs)
	}
	r, err := resultsjson.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := kernels.CountHostAndGPU([]string{"cmdpath"}, kernels.Options{})
	if len(r.Benchmarks) != host {
		t.Fatalf("%d benchmarks, want the %d mode=host ones", len(r.Benchmarks), host)
	}
	for _, b := range r.Benchmarks {
		if b.Error != "" || len(b.Samples) == 0 || b.Params["mode"] != kernels.ModeHost || b.Metrics["median_us"] <= 0 {
			t.Errorf("%s: error %q, %d samples, mode %q, median %v", b.Name, b.Error, len(b.Samples), b.Params["mode"], b.Metrics["median_us"])
		}
	}
	for _, k := range []string{kernels.EnvCPU, kernels.EnvGo, kernels.EnvGOMAXPROCS, kernels.EnvPerfgate} {
		if r.Run.Env[k] == "" {
			t.Errorf("run.env lacks %s: %v", k, r.Run.Env)
		}
	}
}

func TestRunGPUOnlyWithoutCUDA(t *testing.T) {
	if kernels.CUDA {
		t.Skip("this binary has CUDA")
	}
	code, _, errs := runCmd(t, "run", "--suite", "cmdpath", "--filter", "mode=gpu", "--commit", strings.Repeat("a", 40))
	if code != 3 || !strings.Contains(errs, "built without CUDA (-tags cuda)") {
		t.Errorf("exit %d, stderr %q; want exit 3: every selected benchmark needs the GPU", code, errs)
	}
}
