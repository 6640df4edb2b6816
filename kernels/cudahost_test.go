package kernels

import (
	"io/fs"
	"path"
	"reflect"
	"testing"
)

// fakeFS is a file system of path -> contents for ProbeHostCUDA.
type fakeFS map[string]string

func (f fakeFS) read(p string) ([]byte, error) {
	if b, ok := f[p]; ok {
		return []byte(b), nil
	}
	return nil, fs.ErrNotExist
}

func (f fakeFS) glob(pat string) ([]string, error) {
	var out []string
	for p := range f {
		if ok, _ := path.Match(pat, p); ok {
			out = append(out, p)
		}
	}
	return out, nil
}

func TestProbeHostCUDA(t *testing.T) {
	driver := "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U16)  Tue Sep 23 2025\n"
	noEnv := func(string) string { return "" }
	tests := []struct {
		name string
		fs   fakeFS
		want []string
	}{
		{"no driver", fakeFS{"/usr/include/cuda.h": "#define CUDA_VERSION 11080\n"},
			[]string{"no NVIDIA driver on this host (/proc/driver/nvidia/version): GPU suites need a host with an NVIDIA GPU and its driver"}},
		{"the lent H100: CUDA 13 toolkit", fakeFS{"/proc/driver/nvidia/version": driver,
			"/usr/local/cuda/include/cuda.h": "#define CUDA_VERSION 13000\n", "/usr/local/cuda/lib64/libnvrtc.so.13": ""},
			[]string{"NVIDIA driver 580.95.05 is here, but this binary was built without CUDA: rebuild with action/build.sh (the GitHub Action does), or CGO_ENABLED=1 go build -tags cuda ./cmd/perfgate",
				"cuda.h 13.0: /usr/local/cuda/include/cuda.h", "NVRTC: /usr/local/cuda/lib64/libnvrtc.so.13"}},
		{"driver only, an old toolkit", fakeFS{"/proc/driver/nvidia/version": driver, "/usr/local/cuda/include/cuda.h": "#define CUDA_VERSION 11040\n"},
			[]string{"NVIDIA driver 580.95.05 is here, but this binary was built without CUDA: rebuild with action/build.sh (the GitHub Action does), or CGO_ENABLED=1 go build -tags cuda ./cmd/perfgate",
				"missing: a cuda.h of CUDA 11.8 to 13.x (looked in CUDA_HOME, CUDA_PATH, /usr/local/cuda*, /usr/include, Triton's copy; skipped /usr/local/cuda/include/cuda.h (11.4)): install the toolkit's headers (e.g. apt-get install cuda-cudart-dev-13-0) or name the folder with CGO_CFLAGS=-I…, or the action's cuda-include",
				"missing: libnvrtc.so.13, .12 or .11.2 in the toolkit's lib folders or PyTorch's NVIDIA wheels (the dynamic loader's own path is not checked here): install the toolkit's NVRTC (e.g. apt-get install cuda-nvrtc-13-0) or put its folder on LD_LIBRARY_PATH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProbeHostCUDA(noEnv, tt.fs.read, tt.fs.glob).Diagnosis()
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Diagnosis =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	t.Run("CUDA_HOME first", func(t *testing.T) {
		f := fakeFS{"/opt/cuda/include/cuda.h": "#define CUDA_VERSION 12080\n", "/usr/local/cuda/include/cuda.h": "#define CUDA_VERSION 13000\n"}
		h := ProbeHostCUDA(func(k string) string { return map[string]string{"CUDA_HOME": "/opt/cuda"}[k] }, f.read, f.glob)
		if h.Header != "/opt/cuda/include/cuda.h" || h.HeaderVer != "12.8" {
			t.Errorf("header %q %q, want CUDA_HOME's 12.8", h.Header, h.HeaderVer)
		}
	})
}
