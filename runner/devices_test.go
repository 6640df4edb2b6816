package runner

import (
	"slices"
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
	mixed := []kernels.Device{twoGPUs[0], {Index: 1, UUID: "GPU-c", Name: "NVIDIA H100 80GB HBM3"}}
	tests := []struct {
		spec string
		all  []kernels.Device
		want []int
		err  string
	}{
		{"all", twoGPUs, []int{0, 1}, ""},
		{"1", twoGPUs, []int{1}, ""},
		{"1,0", twoGPUs, []int{1, 0}, ""},
		{"2", twoGPUs, nil, "GPU 2 does not exist (this machine has 2)"},
		{"0,0", twoGPUs, nil, "GPU 0 is named twice"},
		{"x", twoGPUs, nil, `"x" is not a GPU index`},
		{"-1", twoGPUs, nil, `"-1" is not a GPU index`},
		{",", twoGPUs, nil, "name all, or GPU indices"},
		{"all", nil, nil, "no GPU found"},
		{"all", mixed, nil, "one testbed per GPU model"},
		{"0", mixed, []int{0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseDevices(tt.spec, tt.all)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !model.IsInputError(err) {
					t.Fatalf("err = %v, want an input error %q", err, tt.err)
				}
				return
			}
			var idx []int
			for _, d := range got {
				idx = append(idx, d.Index)
			}
			if err != nil || !slices.Equal(idx, tt.want) {
				t.Errorf("got %v, %v; want %v", idx, err, tt.want)
			}
		})
	}
}

func TestMergeDevices(t *testing.T) {
	res := func(gpu string) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: "r", Env: map[string]string{model.EnvGPU: gpu}},
			Benchmarks: []model.Benchmark{{Suite: "s", Name: "b/mode=cold", Params: map[string]string{"mode": "cold"}, Unit: "us", Samples: []float64{1}}}}
	}
	got, err := MergeDevices(model.Run{ID: "parent"}, []DeviceRun{{twoGPUs[0], res("NVIDIA H200")}, {twoGPUs[1], res("NVIDIA H200")}})
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
	if _, err := MergeDevices(model.Run{ID: "parent"}, []DeviceRun{{twoGPUs[0], res("NVIDIA H200")}, {twoGPUs[1], res("NVIDIA H100 80GB HBM3")}}); err == nil {
		t.Error("results of two GPU models were merged")
	}
}
