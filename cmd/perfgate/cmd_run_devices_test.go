package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

var twoGPUs = []kernels.Device{
	{Index: 0, UUID: "GPU-aaaaaaaa-0000-0000-0000-000000000000", Name: "NVIDIA H200"},
	{Index: 1, UUID: "GPU-bbbbbbbb-0000-0000-0000-000000000000", Name: "NVIDIA H200"},
}

func TestParseDevices(t *testing.T) {
	tests := []struct {
		spec string
		want []int
		err  string
	}{
		{"all", []int{0, 1}, ""},
		{"1", []int{1}, ""},
		{"1,0", []int{1, 0}, ""},
		{"2", nil, "GPU 2 does not exist (this machine has 2)"},
		{"0,0", nil, "GPU 0 is named twice"},
		{"x", nil, `"x" is not a GPU index`},
		{"-1", nil, `"-1" is not a GPU index`},
		{",", nil, "name all, or GPU indices"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := parseDevices(tt.spec, twoGPUs)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			var idx []int
			for _, d := range got {
				idx = append(idx, d.Index)
			}
			if err != nil || len(idx) != len(tt.want) || (len(idx) > 0 && idx[0] != tt.want[0]) {
				t.Errorf("got %v, %v; want %v", idx, err, tt.want)
			}
		})
	}
}

func TestCheckOneModel(t *testing.T) {
	if err := checkOneModel(twoGPUs); err != nil {
		t.Errorf("two H200s: %v", err)
	}
	mixed := []kernels.Device{twoGPUs[0], {Index: 1, UUID: "GPU-c", Name: "NVIDIA H100 80GB HBM3"}}
	if err := checkOneModel(mixed); err == nil || !strings.Contains(err.Error(), "one testbed per GPU model") {
		t.Errorf("an H200 and an H100: err = %v, want a refusal", err)
	}
}

func TestMergeDeviceRuns(t *testing.T) {
	res := func(gpu string) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: "r", Env: map[string]string{model.EnvGPU: gpu}},
			Benchmarks: []model.Benchmark{{Suite: "s", Name: "b/mode=cold", Params: map[string]string{"mode": "cold"}, Unit: "us", Samples: []float64{1}}}}
	}
	got, err := mergeDeviceRuns(model.Run{ID: "parent"}, []deviceRun{{twoGPUs[0], res("NVIDIA H200")}, {twoGPUs[1], res("NVIDIA H200")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Benchmarks) != 2 || got.Benchmarks[1].Name != "b/mode=cold/device=1" || got.Benchmarks[1].Params["device"] != "1" ||
		got.Benchmarks[1].Info[kernels.EnvGPUUUID] != twoGPUs[1].UUID || got.Benchmarks[0].Name != "b/mode=cold/device=0" {
		t.Errorf("merged benchmarks: %+v", got.Benchmarks)
	}
	if got.Run.ID != "parent" {
		t.Errorf("run block %+v, want the parent's", got.Run)
	}
	if got.Run.Env[EnvDevices] != "0:"+twoGPUs[0].UUID+",1:"+twoGPUs[1].UUID || got.Run.Env[model.EnvGPU] != "NVIDIA H200" {
		t.Errorf("merged env: %v", got.Run.Env)
	}
	if _, err := mergeDeviceRuns(model.Run{ID: "parent"}, []deviceRun{{twoGPUs[0], res("NVIDIA H200")}, {twoGPUs[1], res("NVIDIA H100 80GB HBM3")}}); err == nil {
		t.Error("results of two GPU models were merged")
	}
}

// TestRunDevicesReexec runs perfgate run --devices all with two pretend
// GPUs: two worker processes of this binary run the cmdpath host benchmarks
// at once, each told its GPU through CUDA_VISIBLE_DEVICES, and the results
// are merged.
func TestRunDevicesReexec(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two perfgate processes")
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
	r, err := model.Load(out)
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
