package runner

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestBuiltinUnits checks the processes of a round of built-in suites and
// the worker of each GPU of --devices: the selection as given, the
// suites in the order named, a suite the selection empties left out.
func TestBuiltinUnits(t *testing.T) {
	o := Options{Suites: []string{"rowwise", "memory", "gemm"}, Strict: true, Kernel: kernels.Options{Size: "small",
		Filter: regexp.MustCompile("layernorm|memcpy"), DTypes: []string{"fp32"}, MaxTime: 2 * time.Second, Fast: true}}
	sel := Settings{Size: "small", Filter: "layernorm|memcpy", DTypes: "fp32", MaxTime: 2 * time.Second, Fast: true}
	child := func(suites string, strict bool) Child {
		s := sel
		s.Suites, s.Strict = suites, strict
		return Child{Settings: s}
	}
	units := BuiltinUnits(o)
	want := []Unit{{Name: "rowwise", Child: child("rowwise", false)}, {Name: "memory", Child: child("memory", false)}}
	if !reflect.DeepEqual(units, want) {
		t.Errorf("units\n%+v\nwant\n%+v", units, want)
	}
	if got, want := devicesChild(o), child("rowwise,memory,gemm", true); !reflect.DeepEqual(got, want) {
		t.Errorf("worker %+v, want %+v", got, want)
	}
}

// TestRunRefusesBeforeMeasuring checks the input errors Run returns before
// it opens the GPU or resolves the run block.
func TestRunRefusesBeforeMeasuring(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"no suite", Options{}, "-suite: name at least one suite"},
		{"unknown suite", Options{Suites: []string{"memory", "nope"}}, `-suite: unknown suite "nope"`},
		{"selects nothing", Options{Suites: []string{"microbatch"}, Kernel: kernels.Options{DTypes: []string{"fp16"}}}, "they select no benchmark of microbatch"},
		{"devices and rounds", Options{Suites: []string{"memory"}, Rounds: 2, Devices: []kernels.Device{{}}}, "-devices: not with --rounds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Runner{Log: &strings.Builder{}, OpenGPU: func(context.Context) (GPU, func(), error) {
				t.Fatal("opened the GPU")
				return nil, nil, nil
			}}
			tt.o.Meta = func() (model.Run, error) { t.Fatal("resolved the run block"); return model.Run{}, nil }
			_, err := r.Run(context.Background(), tt.o)
			if err == nil || !model.IsInputError(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want an input error %q", err, tt.want)
			}
		})
	}
}
