package kernels

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestNVRTCCandidates(t *testing.T) {
	dirs := []string{"/usr/local/cuda/lib64"}
	tests := []struct {
		name   string
		driver int
		want   []string
	}{
		{"CUDA 13 driver: 13 first", 13000, []string{
			"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13",
			"libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.12",
			"libnvrtc.so.11.2", "/usr/local/cuda/lib64/libnvrtc.so.11.2"}},
		// NVRTC 13 writes PTX a 12.x driver cannot JIT: never offered to one.
		{"CUDA 12.8 driver: no 13", 12080, []string{
			"libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.12",
			"libnvrtc.so.11.2", "/usr/local/cuda/lib64/libnvrtc.so.11.2"}},
		{"unknown driver: all", -1, []string{
			"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13",
			"libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.12",
			"libnvrtc.so.11.2", "/usr/local/cuda/lib64/libnvrtc.so.11.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nvrtcCandidates(tt.driver, dirs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("nvrtcCandidates(%d) = %q, want %q", tt.driver, got, tt.want)
			}
		})
	}
}

func TestNVRTCDirs(t *testing.T) {
	env := map[string]string{"CUDA_HOME": "/opt/cuda-13.0", "HOME": "/home/u", "CONDA_PREFIX": "/opt/conda"}
	// A fake file system: PyTorch's CUDA 13 wheel under the user's site-packages.
	glob := func(p string) ([]string, error) {
		if p == "/home/u/.local/lib/python3*/site-packages/nvidia/cu13/lib" {
			return []string{"/home/u/.local/lib/python3.12/site-packages/nvidia/cu13/lib"}, nil
		}
		return nil, nil
	}
	got := nvrtcDirs(func(k string) string { return env[k] }, glob)
	want := []string{
		"/opt/cuda-13.0/lib64", "/opt/cuda-13.0/targets/x86_64-linux/lib", "/opt/cuda-13.0/targets/sbsa-linux/lib",
		"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/local/cuda/targets/sbsa-linux/lib",
		"/home/u/.local/lib/python3.12/site-packages/nvidia/cu13/lib",
		"/opt/conda/lib",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nvrtcDirs = %q\nwant %q", got, want)
	}
}

// TestLoadFirst plays the hosts the one binary must serve, with a fake
// loader that opens only the files the host has.
func TestLoadFirst(t *testing.T) {
	dirs := []string{"/usr/local/cuda/lib64", "/site/nvidia/cuda_nvrtc/lib"}
	tests := []struct {
		name   string
		driver int
		has    []string // what the dynamic loader can open
		want   string
	}{
		{"CUDA 13 toolkit on the loader path", 13000, []string{"libnvrtc.so.13"}, "libnvrtc.so.13"},
		{"CUDA 13 toolkit not in ld.so.conf", 13000, []string{"/usr/local/cuda/lib64/libnvrtc.so.13"},
			"/usr/local/cuda/lib64/libnvrtc.so.13"},
		{"CUDA 13 driver, only PyTorch's CUDA 12 wheel", 13000, []string{"/site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"},
			"/site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"},
		{"CUDA 12 driver with a CUDA 13 toolkit beside 12", 12040,
			[]string{"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12"}, "/usr/local/cuda/lib64/libnvrtc.so.12"},
		{"CUDA 11.8 host", 11080, []string{"libnvrtc.so.11.2"}, "libnvrtc.so.11.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tried []string
			open := func(p string) error {
				tried = append(tried, p)
				for _, h := range tt.has {
					if h == p {
						return nil
					}
				}
				return errors.New(filepath.Base(p) + ": cannot open shared object file")
			}
			got, err := loadFirst("libnvrtc", nvrtcCandidates(tt.driver, dirs), open)
			if err != nil || got != tt.want {
				t.Fatalf("loadFirst = %q, %v; want %q (tried %q)", got, err, tt.want, tried)
			}
			if tried[len(tried)-1] != got {
				t.Errorf("kept trying after %q opened: %q", got, tried)
			}
		})
	}
	t.Run("nothing there", func(t *testing.T) {
		_, err := loadFirst("libnvrtc", nvrtcCandidates(13000, nil), func(string) error { return errors.New("not found") })
		var le *libLoadError
		if !errors.As(err, &le) || len(le.Tried) != 3 {
			t.Fatalf("err = %v, want a libLoadError naming the 3 sonames", err)
		}
		for _, want := range []string{"libnvrtc.so.13: not found", "libnvrtc.so.11.2: not found", "LD_LIBRARY_PATH"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
}
