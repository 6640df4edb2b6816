package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// devicesOp names a run on several GPUs in its infrastructure errors.
func devicesOp() string { return "run " + model.Flag("devices").String() }

// EnvDevices is the run.env key listing a --devices run's GPUs as index:UUID.
const EnvDevices = "devices"

// ParseDevices turns --devices into the GPUs to run on: "all", or
// comma-separated indices as the driver numbers the GPUs. It refuses GPUs
// of different models in one run: its results would mix testbeds
// (run.env.gpu is part of what makes runs comparable).
func ParseDevices(spec string, all []kernels.Device) ([]kernels.Device, error) {
	devs, err := parseDevices(spec, all)
	if err != nil {
		return nil, err
	}
	for _, d := range devs[1:] {
		if d.Name != devs[0].Name {
			return nil, model.SettingError("devices", "GPU %d is a %s and GPU %d a %s: run each model separately (one testbed per GPU model)", devs[0].Index, devs[0].Name, d.Index, d.Name)
		}
	}
	return devs, nil
}

func parseDevices(spec string, all []kernels.Device) ([]kernels.Device, error) {
	if strings.TrimSpace(spec) == "all" {
		if len(all) == 0 {
			return nil, model.SettingError("devices", "no GPU found")
		}
		return all, nil
	}
	var out []kernels.Device
	for _, s := range strings.Split(spec, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 {
			return nil, model.SettingError("devices", "%q is not a GPU index (use all, or indices such as 0,1)", s)
		}
		if i >= len(all) {
			return nil, model.SettingError("devices", "GPU %d does not exist (this machine has %d)", i, len(all))
		}
		if slices.ContainsFunc(out, func(d kernels.Device) bool { return d.Index == i }) {
			return nil, model.SettingError("devices", "GPU %d is named twice", i)
		}
		out = append(out, all[i])
	}
	if len(out) == 0 {
		return nil, model.SettingError("devices", "name all, or GPU indices such as 0,1")
	}
	return out, nil
}

// OnDevices runs the perfgate process c (without output file and run
// block) once per GPU of devs, all at once, each worker process seeing its
// GPU alone (CUDA_VISIBLE_DEVICES=UUID), and returns their results merged
// under the run block run (MergeDevices).
func (r *Runner) OnDevices(ctx context.Context, devs []kernels.Device, c Child, run model.Run) (*model.Results, error) {
	dir, err := os.MkdirTemp("", "perfgate-devices-")
	if err != nil {
		return nil, &model.InfraError{Op: devicesOp(), Err: err}
	}
	defer os.RemoveAll(dir)
	c.Meta = childMeta(run) // one run block for all GPUs
	var mu sync.Mutex       // one line at a time on the log
	errs := make([]error, len(devs))
	paths := make([]string, len(devs))
	t0 := time.Now()
	var wg sync.WaitGroup
	for i, d := range devs {
		paths[i] = filepath.Join(dir, fmt.Sprintf("gpu%d.json", d.Index))
		pw := &prefixWriter{prefix: fmt.Sprintf("[gpu %d] ", d.Index), w: r.Log, mu: &mu}
		c.Out = paths[i]
		cmd, _, err := r.Start(ctx, c)
		if err != nil {
			return nil, err
		}
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, "CUDA_VISIBLE_DEVICES="+d.UUID)
		cmd.Stderr = pw
		// On cancellation the worker gets SIGTERM, so that it can stop what
		// it started (an MPS daemon), then SIGKILL after the delay.
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
		cmd.WaitDelay = 30 * time.Second
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("GPU %d (%s): %w", d.Index, d.UUID, err)
			}
			pw.flush()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, &model.InfraError{Op: devicesOp(), Err: err}
	}
	runs := make([]DeviceRun, len(devs))
	for i, d := range devs {
		res, err := resultsjson.Load(paths[i])
		if err != nil {
			return nil, &model.InfraError{Op: fmt.Sprintf("run %s: read GPU %d's results", model.Flag("devices"), d.Index), Err: err}
		}
		runs[i] = DeviceRun{Device: d, Results: res}
	}
	merged, err := MergeDevices(run, runs)
	if err != nil {
		return nil, &model.InfraError{Op: devicesOp(), Err: err}
	}
	fmt.Fprintf(r.Log, "perfgate: %d GPUs in parallel, wall %v\n", len(devs), time.Since(t0).Round(time.Millisecond))
	return merged, nil
}

// A DeviceRun is the results one worker process wrote for one GPU.
type DeviceRun struct {
	Device  kernels.Device
	Results *model.Results
}

// MergeDevices merges the per-GPU results into one document: each
// benchmark's name gets /device=N, its params device=N and its info the GPU's
// UUID; the run block is run (the parent's) and its env the first GPU's, with
// env.devices listing all and env.gpu_uuid all their UUIDs. GPUs whose
// results name different models are refused.
func MergeDevices(run model.Run, runs []DeviceRun) (*model.Results, error) {
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

// A prefixWriter writes whole lines to w, each with prefix, holding mu
// while it writes so that the lines of concurrent workers do not interleave.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mu     *sync.Mutex
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.mu.Lock()
		fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf[:i])
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
	}
}

// flush writes what is left of an unfinished last line.
func (p *prefixWriter) flush() {
	if len(p.buf) > 0 {
		p.Write([]byte{'\n'})
	}
}
