package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// listDevices lists the GPUs for --devices (tests replace it).
var listDevices = kernels.Devices

// parseDevices turns --devices into the GPUs to run on: "all", or
// comma-separated indices as the driver numbers the GPUs.
func parseDevices(spec string, all []kernels.Device) ([]kernels.Device, error) {
	if strings.TrimSpace(spec) == "all" {
		if len(all) == 0 {
			return nil, usageError("-devices: no GPU found")
		}
		return all, nil
	}
	var out []kernels.Device
	for _, s := range splitList(spec) {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 {
			return nil, usageError("-devices: %q is not a GPU index (use all, or indices such as 0,1)", s)
		}
		if i >= len(all) {
			return nil, usageError("-devices: GPU %d does not exist (this machine has %d)", i, len(all))
		}
		if slices.ContainsFunc(out, func(d kernels.Device) bool { return d.Index == i }) {
			return nil, usageError("-devices: GPU %d is named twice", i)
		}
		out = append(out, all[i])
	}
	if len(out) == 0 {
		return nil, usageError("-devices: name all, or GPU indices such as 0,1")
	}
	return out, nil
}

// checkOneModel refuses GPUs of different models in one run: its results
// would mix testbeds (run.env.gpu is part of what makes runs comparable).
func checkOneModel(devs []kernels.Device) error {
	for _, d := range devs[1:] {
		if d.Name != devs[0].Name {
			return usageError("-devices: GPU %d is a %s and GPU %d a %s: run each model separately (one testbed per GPU model)",
				devs[0].Index, devs[0].Name, d.Index, d.Name)
		}
	}
	return nil
}

// A deviceRun is the results one worker process wrote for one GPU.
type deviceRun struct {
	Device  kernels.Device
	Results *model.Results
}

// EnvDevices is the run.env key listing a --devices run's GPUs as index:UUID.
const EnvDevices = "devices"

// mergeDeviceRuns merges the per-GPU results into one document: each
// benchmark's name gets /device=N, its params device=N and its info the GPU's
// UUID; the run block is run (the parent's) and its env the first GPU's, with
// env.devices listing all and env.gpu_uuid all their UUIDs. GPUs whose
// results name different models are refused.
func mergeDeviceRuns(run model.Run, runs []deviceRun) (*model.Results, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no device results to merge")
	}
	out := &model.Results{Schema: model.Schema, Run: run}
	out.Run.Env = map[string]string{}
	for k, v := range runs[0].Results.Run.Env {
		out.Run.Env[k] = v
	}
	var devs, uuids []string
	for _, r := range runs {
		if g, g0 := r.Results.Run.Env[model.EnvGPU], out.Run.Env[model.EnvGPU]; g != g0 {
			return nil, fmt.Errorf("GPU %d ran on a %q, GPU %d on a %q: one run must not mix GPU models",
				runs[0].Device.Index, g0, r.Device.Index, g)
		}
		idx := strconv.Itoa(r.Device.Index)
		devs, uuids = append(devs, idx+":"+r.Device.UUID), append(uuids, r.Device.UUID)
		for _, b := range r.Results.Benchmarks {
			b.Name += "/device=" + idx
			b.Params = cloneAdd(b.Params, "device", idx)
			b.Info = cloneAdd(b.Info, kernels.EnvGPUUUID, r.Device.UUID)
			out.Benchmarks = append(out.Benchmarks, b)
		}
	}
	out.Run.Env[EnvDevices] = strings.Join(devs, ",")
	out.Run.Env[kernels.EnvGPUUUID] = strings.Join(uuids, ",")
	return out, nil
}

func cloneAdd(m map[string]string, k, v string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for x, y := range m {
		c[x] = y
	}
	c[k] = v
	return c
}
