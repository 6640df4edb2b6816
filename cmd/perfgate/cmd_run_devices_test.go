package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

var twoGPUs = []kernels.Device{
	{Index: 0, UUID: "GPU-aaaaaaaa-0000-0000-0000-000000000000", Name: "NVIDIA H200"},
	{Index: 1, UUID: "GPU-bbbbbbbb-0000-0000-0000-000000000000", Name: "NVIDIA H200"},
}

// TestRunDevicesReexec runs perfgate run --devices all with two pretend
// GPUs: two worker processes of this binary run the cmdpath host benchmarks
// at once, each told its GPU through CUDA_VISIBLE_DEVICES, and the results
// are merged.
func TestRunDevicesReexec(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two perfgate processes")
	}
	if kernels.CUDA {
		// The pretend GPUs' UUIDs reach the workers as CUDA_VISIBLE_DEVICES,
		// and a CUDA build initialises the driver as it starts, which then
		// finds no GPU. The real thing: docs/results/h200x2-devices.
		t.Skip("pretend GPUs: a CUDA build's workers would look for them on the real driver")
	}
	prev := listDevices
	listDevices = func() ([]kernels.Device, error) { return twoGPUs, nil }
	defer func() { listDevices = prev }()
	out := filepath.Join(t.TempDir(), "merged.json")
	code, _, errs := runCmd(t, "run", "--devices", "all", "--suite", "cmdpath", "--filter", "cmdpath/clone/.*mode=host",
		"--fast", "--max-time", "10ms", "--commit", strings.Repeat("b", 40), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"[gpu 0] cmdpath/clone/", "[gpu 1] cmdpath/clone/", "perfgate: 2 GPUs in parallel"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	r, err := resultsjson.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 12 {
		t.Fatalf("%d benchmarks, want 6 clone benchmarks × 2 GPUs", len(r.Benchmarks))
	}
	seen := map[string]bool{}
	for _, b := range r.Benchmarks {
		seen[b.Params["device"]+" "+b.Info[kernels.EnvGPUUUID]] = true
	}
	if !seen["0 "+twoGPUs[0].UUID] || !seen["1 "+twoGPUs[1].UUID] || r.Run.Commit != strings.Repeat("b", 40) {
		t.Errorf("device params/UUIDs %v, commit %q", seen, r.Run.Commit)
	}
}
