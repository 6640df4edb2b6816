package kernels

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A HostCUDA is what this host offers a CUDA build of perfgate: what
// perfgate doctor shows when its binary was built without CUDA.
type HostCUDA struct {
	Driver     string // the NVIDIA driver's version; "" without one
	Header     string // the first usable cuda.h; "" when none
	HeaderVer  string // its CUDA version, "13.0"
	NVRTC      string // the first libnvrtc a CUDA build would load; "" when none
	SkippedHdr []string
}

// cudaHeaderDirs are where action/build.sh looks for cuda.h after
// cuda-include, in its order.
var cudaHeaderDirs = []string{"/usr/local/cuda/include", "/usr/local/cuda-13*/include", "/usr/local/cuda-12*/include",
	"/usr/local/cuda-11.8/include", "/usr/include", "/usr/local/lib/python3*/dist-packages/triton/backends/nvidia/include"}

var (
	driverRE  = regexp.MustCompile(`Kernel Module(?: for [a-z0-9_]+)?\s+([0-9][0-9.]*)`)
	cudaVerRE = regexp.MustCompile(`(?m)^#define CUDA_VERSION ([0-9]+)`)
)

// ProbeHostCUDA looks for the NVIDIA driver (/proc/driver/nvidia/version),
// a cuda.h of CUDA 11.8 to 13.x and a libnvrtc, through readFile and glob
// (os.ReadFile and filepath.Glob outside tests).
func ProbeHostCUDA(getenv func(string) string, readFile func(string) ([]byte, error), glob func(string) ([]string, error)) HostCUDA {
	var h HostCUDA
	if b, err := readFile("/proc/driver/nvidia/version"); err == nil {
		if m := driverRE.FindSubmatch(b); m != nil {
			h.Driver = string(m[1])
		} else {
			h.Driver = "unknown version"
		}
	}
	dirs := cudaHeaderDirs
	for _, k := range []string{"CUDA_PATH", "CUDA_HOME"} {
		if v := getenv(k); v != "" {
			dirs = append([]string{filepath.Join(v, "include")}, dirs...)
		}
	}
	for _, pat := range dirs {
		found, _ := glob(filepath.Join(pat, "cuda.h"))
		for _, f := range found {
			b, err := readFile(f)
			if err != nil {
				continue
			}
			m := cudaVerRE.FindSubmatch(b)
			v := 0
			if m != nil {
				v, _ = strconv.Atoi(string(m[1]))
			}
			if v >= 11080 && v < 14000 {
				h.Header, h.HeaderVer = f, headerVersion(v)
				break
			}
			h.SkippedHdr = append(h.SkippedHdr, f+" ("+headerVersion(v)+")")
		}
		if h.Header != "" {
			break
		}
	}
	for _, c := range nvrtcCandidates(0, nvrtcDirs(getenv, glob)) {
		if filepath.IsAbs(c) {
			if m, _ := glob(c); len(m) > 0 {
				h.NVRTC = c
				break
			}
		}
	}
	return h
}

// Diagnosis says, for a binary built without CUDA, whether this host could
// run GPU suites and what a CUDA build needs that is missing, with the fix.
func (h HostCUDA) Diagnosis() []string {
	if h.Driver == "" {
		return []string{"no NVIDIA driver on this host (/proc/driver/nvidia/version): GPU suites need a host with an NVIDIA GPU and its driver"}
	}
	out := []string{"NVIDIA driver " + h.Driver + " is here, but this binary was built without CUDA: rebuild with action/build.sh (the GitHub Action does), or CGO_ENABLED=1 go build -tags cuda ./cmd/perfgate"}
	if h.Header != "" {
		out = append(out, "cuda.h "+h.HeaderVer+": "+h.Header)
	} else {
		msg := "missing: a cuda.h of CUDA 11.8 to 13.x (looked in CUDA_HOME, CUDA_PATH, /usr/local/cuda*, /usr/include, Triton's copy"
		if len(h.SkippedHdr) > 0 {
			msg += "; skipped " + strings.Join(h.SkippedHdr, ", ")
		}
		out = append(out, msg+"): install the toolkit's headers (e.g. apt-get install cuda-cudart-dev-13-0) or name the folder with CGO_CFLAGS=-I…, or the action's cuda-include")
	}
	if h.NVRTC != "" {
		out = append(out, "NVRTC: "+h.NVRTC)
	} else {
		out = append(out, "missing: libnvrtc.so.13, .12 or .11.2 in the toolkit's lib folders or PyTorch's NVIDIA wheels (the dynamic loader's own path is not checked here): install the toolkit's NVRTC (e.g. apt-get install cuda-nvrtc-13-0) or put its folder on LD_LIBRARY_PATH")
	}
	return out
}
