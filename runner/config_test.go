package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestUserKernelsFromExample(t *testing.T) {
	cfg, err := config.Load("../examples/kernels/.perfgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	var s *config.Suite
	for i := range cfg.Suites {
		if cfg.Suites[i].Kernel != nil {
			s = &cfg.Suites[i]
		}
	}
	if s == nil {
		t.Fatal("the example declares no kernel suite")
	}
	uks, err := userKernels(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	// One UserKernel per -DUNROLL value, each with every n.
	if len(uks) != 2 {
		t.Fatalf("%d user kernels, want 2 (one per UNROLL)", len(uks))
	}
	k := uks[1]
	if k.Suite != s.Name || k.Entry != "saxpy" || !reflect.DeepEqual(k.Options, []string{"-DUNROLL=4"}) || !strings.Contains(k.Source, "saxpy_ref") {
		t.Errorf("kernel = suite %q entry %q options %v", k.Suite, k.Entry, k.Options)
	}
	if len(k.Cases) != 3 {
		t.Fatalf("%d cases, want 3", len(k.Cases))
	}
	c := k.Cases[2]
	want := kernels.UserCase{
		Params: map[string]string{"n": "67108864", "unroll": "4"},
		Buffers: []kernels.UserBuffer{{Name: "x", DType: "fp32", Len: 67108864, Init: "random"},
			{Name: "y", DType: "fp32", Len: 67108864, Init: "random", Output: true}},
		Args:  []kernels.UserArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "fp32", Value: 2}, {Buffer: -1, DType: "i32", Value: 67108864}},
		Grid:  [3]uint32{65536, 1, 1},
		Block: [3]uint32{256, 1, 1},
		Bytes: 12 * 67108864, FLOPs: 2 * 67108864,
		Reference: &kernels.UserReference{Entry: "saxpy_ref"},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("case =\n%+v\nwant\n%+v", c, want)
	}
}

func TestConfigCommandSuite(t *testing.T) {
	dir := t.TempDir()
	yml := "prepare:\n  - echo prepared > prepared.txt\nsuites:\n  - name: echo\n    command:\n      run: printf 'BenchmarkX-2 10 50 ns/op\\n'\n      format: gotest\n      repeat: 3\n"
	path := filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	r := &Runner{Log: &log, OpenGPU: func(context.Context) (GPU, func(), error) {
		t.Fatal("a command suite opened the GPU")
		return nil, nil, nil
	}}
	bs, gpuEnv, err := r.Config(context.Background(), cfg, ConfigOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Suite != "echo" || len(bs[0].Samples) != 3 || gpuEnv != nil {
		t.Errorf("got %+v, env %v", bs, gpuEnv)
	}
	if _, err := os.Stat(filepath.Join(dir, "prepared.txt")); err != nil || !strings.Contains(log.String(), "perfgate: prepare (") {
		t.Errorf("the prepare command did not run in the config's directory (%v):\n%s", err, log.String())
	}
	if units := ConfigUnits(cfg, ConfigOptions{Fast: true}); len(units) != 1 ||
		!reflect.DeepEqual(units[0].Child, Child{Settings: Settings{Config: path, Suites: "echo", SkipPrepare: true, Fast: true}}) {
		t.Errorf("units %+v", units)
	}
}

func TestConfigKernelSuiteWithoutCUDA(t *testing.T) {
	if kernels.CUDA {
		t.Skip("this binary has CUDA; the GPU runner exercises kernel suites (kernels tests)")
	}
	cfg, err := config.Load("../examples/kernels/.perfgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Log: &bytes.Buffer{}}
	_, _, err = r.Config(context.Background(), cfg, ConfigOptions{Only: regexp.MustCompile("^saxpy$"), SkipPrepare: true})
	var ie *model.InfraError
	if !errors.As(err, &ie) || !errors.Is(err, kernels.ErrNoCUDA) {
		t.Errorf("error = %v; want an InfraError wrapping ErrNoCUDA (exit 3)", err)
	}
}

// TestConfigBuiltinSuiteUsesOpener runs a builtin suite of a configuration
// on a fake GPU: the runner opens it once through its Opener, renames the
// benchmarks' suite to the configuration's, and puts the GPU's environment
// and perfgate's version into run.env.
func TestConfigBuiltinSuiteUsesOpener(t *testing.T) {
	dir := t.TempDir()
	yml := "suites:\n  - name: mem\n    builtin: {suite: memory, size: small}\n  - name: mem2\n    builtin: {suite: memory, size: small}\n"
	path := filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opened, released := 0, 0
	r := &Runner{Log: &bytes.Buffer{}, Version: "v9", OpenGPU: func(context.Context) (GPU, func(), error) {
		opened++
		return suiteGPU{}, func() { released++ }, nil
	}}
	bs, env, err := r.Config(context.Background(), cfg, ConfigOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if opened != 1 || released != 1 || len(bs) != 2 || bs[0].Suite != "mem" || bs[1].Suite != "mem2" ||
		env[kernels.EnvPerfgate] != "v9" || env[model.EnvGPU] != "fake" {
		t.Errorf("opened %d released %d, benchmarks %+v, env %v", opened, released, bs, env)
	}
}

// A suiteGPU returns one benchmark per suite.
type suiteGPU struct{ fakeGPU }

func (suiteGPU) RunSuite(_ context.Context, name string, _ kernels.Options) ([]model.Benchmark, error) {
	return []model.Benchmark{{Suite: name, Name: "b", Unit: "us", Samples: []float64{1}}}, nil
}
func (suiteGPU) Env() map[string]string { return map[string]string{model.EnvGPU: "fake"} }
