package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// userKernels turns a kernel suite into the GPU harness's UserKernels: one
// per distinct set of NVRTC options (options may use ${param}, so a sweep
// can compile several variants), in sweep order.
func userKernels(cfg *config.Config, s *config.Suite) ([]kernels.UserKernel, error) {
	k := s.Kernel
	src, err := readKernelSource(cfg, s, k.Source)
	if err != nil {
		return nil, err
	}
	var ref *kernels.UserReference
	if k.Reference != nil {
		ref = &kernels.UserReference{Entry: k.Reference.Entry, Tolerance: k.Reference.Tolerance}
		if k.Reference.Source != "" {
			if ref.Source, err = readKernelSource(cfg, s, k.Reference.Source); err != nil {
				return nil, err
			}
		}
	}
	cases, err := k.Cases()
	if err != nil {
		return nil, &model.InputError{File: cfg.File, Msg: err.Error(), Err: err}
	}
	var out []kernels.UserKernel
	index := map[string]int{}
	for _, c := range cases {
		key := strings.Join(c.Options, "\x00")
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, kernels.UserKernel{Suite: s.Name, Name: k.Name, File: filepath.Join(cfg.Dir, k.Source),
				Source: src, Entry: k.Entry, Options: c.Options, SpeedupVs: k.SpeedupVs})
		}
		out[i].Cases = append(out[i].Cases, userCase(c, ref))
	}
	return out, nil
}

func readKernelSource(cfg *config.Config, s *config.Suite, rel string) (string, error) {
	data, err := os.ReadFile(filepath.Join(cfg.Dir, rel))
	if err != nil {
		return "", &model.InputError{File: cfg.File, Path: fmt.Sprintf("line %d: suites: %s", s.Line, s.Name), Msg: "cannot read kernel source " + rel, Err: err}
	}
	return string(data), nil
}

func userCase(c config.Case, ref *kernels.UserReference) kernels.UserCase {
	uc := kernels.UserCase{Params: c.Params, Grid: c.Grid, Block: c.Block, SharedBytes: c.SharedBytes, Bytes: c.Bytes, FLOPs: c.FLOPs, Reference: ref}
	for _, b := range c.Buffers {
		uc.Buffers = append(uc.Buffers, kernels.UserBuffer{Name: b.Name, DType: b.DType, Len: b.Len, Init: b.Init, Value: b.Value, Output: b.Output})
	}
	for _, a := range c.Args {
		uc.Args = append(uc.Args, kernels.UserArg{Buffer: a.Buffer, DType: a.DType, Value: a.Value})
	}
	return uc
}
