package runner

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestJudgePreRun(t *testing.T) {
	busy := kernels.PreRunFinding{Msg: "other processes are using the GPU (4242 python3)", Blocking: true}
	advice := kernels.PreRunFinding{Msg: "compute mode is default", Blocking: false}
	tests := []struct {
		name     string
		findings []kernels.PreRunFinding
		policy   string
		warnings int
		refused  bool
	}{
		{"clean", nil, PreRunStrict, 0, false},
		{"warn shows everything, measures", []kernels.PreRunFinding{busy, advice}, PreRunWarn, 2, false},
		{"strict refuses a busy GPU", []kernels.PreRunFinding{busy, advice}, PreRunStrict, 2, true},
		{"strict measures despite advice", []kernels.PreRunFinding{advice}, PreRunStrict, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := JudgePreRun(tt.findings, tt.policy)
			if len(w) != tt.warnings || (err != nil) != tt.refused {
				t.Fatalf("%d warnings, err %v; want %d, refused %v", len(w), err, tt.warnings, tt.refused)
			}
			var ie *model.InfraError
			if err != nil && (!errors.As(err, &ie) || !strings.Contains(err.Error(), "4242 python3") || strings.Contains(err.Error(), "compute mode")) {
				t.Errorf("refusal %v: want an infrastructure error (exit 3) naming the blocking finding only", err)
			}
		})
	}
}

// TestPreRunOpensThroughOpener checks that the pre-run checks open the GPU
// through the Runner's Opener (the one place a run opens it) and judge the
// environment it reports.
func TestPreRunOpensThroughOpener(t *testing.T) {
	if !kernels.CUDA {
		r := &Runner{OpenGPU: func(context.Context) (GPU, func(), error) {
			t.Fatal("opened the GPU without CUDA")
			return nil, nil, nil
		}}
		if w, err := r.PreRun(context.Background(), PreRunStrict); w != nil || err != nil {
			t.Errorf("without CUDA: %v, %v; want nothing checked", w, err)
		}
		return
	}
	released := false
	r := &Runner{OpenGPU: func(context.Context) (GPU, func(), error) {
		return fakeGPU{env: map[string]string{kernels.EnvOtherProcs: "4242 python3", kernels.EnvNVMLAvailable: "yes"}}, func() { released = true }, nil
	}}
	_, err := r.PreRun(context.Background(), PreRunStrict)
	if err == nil || !strings.Contains(err.Error(), "4242 python3") || !released {
		t.Errorf("err %v, released %v; want a refusal naming the process, the GPU released", err, released)
	}
}

// A fakeGPU reports env and measures nothing.
type fakeGPU struct{ env map[string]string }

func (f fakeGPU) RunSuite(context.Context, string, kernels.Options) ([]model.Benchmark, error) {
	return nil, errors.New("fake GPU")
}
func (f fakeGPU) RunUserKernel(context.Context, kernels.UserKernel, kernels.Options) ([]model.Benchmark, error) {
	return nil, errors.New("fake GPU")
}
func (f fakeGPU) Env() map[string]string { return f.env }

// TestDoctorOpensThroughOpener checks that perfgate doctor's report comes
// from the GPU the Runner's Opener opens, with perfgate's version.
func TestDoctorOpensThroughOpener(t *testing.T) {
	released := false
	r := &Runner{Version: "v9", OpenGPU: func(context.Context) (GPU, func(), error) {
		return fakeGPU{env: map[string]string{kernels.EnvMIG: "enabled", kernels.EnvNVMLAvailable: "yes"}}, func() { released = true }, nil
	}}
	rep, err := r.Doctor(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Env[kernels.EnvPerfgate] != "v9" || !released || !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.HasPrefix(w, "MIG is enabled") }) {
		t.Errorf("report %+v, released %v; want the fake GPU's environment, its MIG warning, the GPU released", rep, released)
	}
	r.OpenGPU = func(context.Context) (GPU, func(), error) { return nil, nil, errors.New("no device") }
	var ie *model.InfraError
	if _, err := r.Doctor(context.Background()); !errors.As(err, &ie) {
		t.Errorf("a GPU that does not open: %v, want an infrastructure error (exit 3)", err)
	}
}
