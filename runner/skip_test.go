package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func hashedRun(id string, hour int, hashes map[string]string) *model.Results {
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Repo: "o/r", Commit: "0123456789abcdef0123456789abcdef01234567",
		Branch: "main", Event: "push", Testbed: "gpu", StartedAt: time.Date(2026, 3, 1, hour, 0, 0, 0, time.UTC)}}
	for name, h := range hashes {
		b := model.Benchmark{Suite: "elementwise", Name: name, Unit: "us", Better: model.Lower, Samples: []float64{1, 2, 3}, Info: map[string]string{}}
		if h != "" {
			b.Info["ptx_sha256"] = h
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

// TestUnchangedKernels: the newest run's hash wins, whatever the order of
// the runs; a benchmark without a hash is never skipped.
func TestUnchangedKernels(t *testing.T) {
	old := hashedRun("old", 1, map[string]string{"add": "aaa", "gelu": "ggg"})
	newer := hashedRun("new", 2, map[string]string{"add": "bbb", "cublas": ""})
	want := map[string]string{"elementwise/add": "bbb", "elementwise/gelu": "ggg"}
	for _, runs := range [][]*model.Results{{old, newer}, {newer, old}} {
		if got := UnchangedKernels(runs); !reflect.DeepEqual(got, want) {
			t.Errorf("UnchangedKernels = %v, want %v", got, want)
		}
	}
}

// optionsGPU is a fake GPU that keeps the options each suite ran with.
type optionsGPU struct{ got []kernels.Options }

func (f *optionsGPU) RunSuite(_ context.Context, _ string, o kernels.Options) ([]model.Benchmark, error) {
	f.got = append(f.got, o)
	return nil, errors.New("fake GPU: measures nothing")
}
func (f *optionsGPU) RunUserKernel(context.Context, kernels.UserKernel, kernels.Options) ([]model.Benchmark, error) {
	return nil, errors.New("fake GPU")
}
func (f *optionsGPU) Env() map[string]string { return map[string]string{} }

// TestSkipUnchangedReachesTheGPU: run --skip-unchanged-against FILE hands
// the baseline's hashes to the GPU's suites, and passes the flag on to the
// processes of rounds and devices.
func TestSkipUnchangedReachesTheGPU(t *testing.T) {
	if !kernels.CUDA {
		// Run refuses GPU suites in a build without CUDA before opening the
		// GPU; the options are still checked through the worker arguments.
		o := Options{Suites: []string{"elementwise"}, SkipUnchangedAgainst: "base.json"}
		if c := devicesChild(o); c.SkipUnchanged != "base.json" {
			t.Errorf("worker %+v does not skip what is unchanged against base.json", c)
		}
		return
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := resultsjson.WriteFile(base, hashedRun("b", 1, map[string]string{"add/n=1M": "abc"})); err != nil {
		t.Fatal(err)
	}
	gpu := &optionsGPU{}
	r := &Runner{Log: &testLog{t}, OpenGPU: func(context.Context) (GPU, func(), error) { return gpu, func() {}, nil }}
	_, _ = r.Run(context.Background(), Options{Suites: []string{"elementwise"}, SkipUnchangedAgainst: base,
		Meta: func() (model.Run, error) { return model.Run{}, nil }})
	if len(gpu.got) != 1 || gpu.got[0].Unchanged["elementwise/add/n=1M"] != "abc" {
		t.Errorf("the GPU got options %+v, want the baseline's hashes", gpu.got)
	}
}

type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) { l.t.Log(string(p)); return len(p), nil }

// TestSkipUnchangedConfigSuites: a config's builtin suite gets the hashes
// recorded under its own name, keyed as the kernels name them (the
// built-in suite's), and the processes of its rounds get the flag.
func TestSkipUnchangedConfigSuites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(path, []byte("suites:\n  - name: ew\n    builtin: {suite: elementwise}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	base := hashedRun("b", 1, map[string]string{"add": "abc"})
	base.Benchmarks = append(base.Benchmarks, model.Benchmark{Suite: "other", Name: "add", Unit: "us", Better: model.Lower,
		Samples: []float64{1}, Info: map[string]string{"ptx_sha256": "zzz"}})
	base.Benchmarks[0].Suite = "ew"
	file := filepath.Join(dir, "base.json")
	if err := resultsjson.WriteFile(file, base); err != nil {
		t.Fatal(err)
	}
	gpu := &optionsGPU{}
	r := &Runner{Log: &testLog{t}, OpenGPU: func(context.Context) (GPU, func(), error) { return gpu, func() {}, nil }}
	_, _, _ = r.Config(context.Background(), cfg, ConfigOptions{SkipUnchangedAgainst: file})
	if want := map[string]string{"elementwise/add": "abc"}; len(gpu.got) != 1 || !reflect.DeepEqual(gpu.got[0].Unchanged, want) {
		t.Errorf("the GPU got options %+v, want Unchanged %v", gpu.got, want)
	}
	units := ConfigUnits(cfg, ConfigOptions{SkipUnchangedAgainst: file + ",x.json"})
	if len(units) != 1 || units[0].Child.SkipUnchanged != file+",x.json" {
		t.Errorf("units %+v do not skip what is unchanged against %s,x.json", units, file)
	}
}
