package kernels

import (
	"fmt"
	"path/filepath"
	"strings"
)

// EnvNVRTCLib is the environment key naming the libnvrtc a session loaded
// (its file, as the dynamic loader resolved it).
const EnvNVRTCLib = "nvrtc_lib"

// nvrtcSonames are the NVRTC libraries by CUDA major, newest first. Each
// binds the same few functions with the same ABI (programs are pointers,
// results ints), so one binary serves CUDA 11.2+, 12 and 13 hosts.
var nvrtcSonames = []struct {
	major  int
	soname string
}{{13, "libnvrtc.so.13"}, {12, "libnvrtc.so.12"}, {11, "libnvrtc.so.11.2"}}

// nvrtcCandidates returns the libnvrtc files to try, best first: the newest
// major the driver runs (driverVersion as cuDriverGetVersion gives it,
// 13000 for 13.0; 0 when unknown means no limit), each by soname (the
// dynamic loader's search: LD_LIBRARY_PATH, ld.so.conf) and then in dirs.
// A newer NVRTC than the driver writes PTX the driver cannot load, so such
// majors are left out.
func nvrtcCandidates(driverVersion int, dirs []string) []string {
	var out []string
	for _, s := range nvrtcSonames {
		if driverVersion > 0 && s.major > driverVersion/1000 {
			continue
		}
		out = append(out, s.soname)
		for _, d := range dirs {
			out = append(out, filepath.Join(d, s.soname))
		}
	}
	return out
}

// nvrtcDirs returns the folders searched after the dynamic loader's own
// search: the toolkit's (CUDA_HOME, CUDA_PATH, /usr/local/cuda) and the
// NVIDIA wheels' that PyTorch installs (nvidia/cuda_nvrtc/lib for CUDA 12,
// nvidia/cu13/lib for CUDA 13) in the Python folders that exist. getenv and
// glob are os.Getenv and filepath.Glob outside tests.
func nvrtcDirs(getenv func(string) string, glob func(string) ([]string, error)) []string {
	var dirs []string
	seen := map[string]bool{}
	add := func(d string) {
		if d != "" && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	for _, root := range []string{getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if root != "" {
			add(filepath.Join(root, "lib64"))
			add(filepath.Join(root, "targets", "x86_64-linux", "lib"))
			add(filepath.Join(root, "targets", "sbsa-linux", "lib"))
		}
	}
	var sites []string
	if v := getenv("VIRTUAL_ENV"); v != "" {
		sites = append(sites, filepath.Join(v, "lib", "python3*", "site-packages"))
	}
	if h := getenv("HOME"); h != "" {
		sites = append(sites, filepath.Join(h, ".local", "lib", "python3*", "site-packages"))
	}
	sites = append(sites, "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
		"/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages")
	for _, s := range sites {
		for _, sub := range []string{"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"} {
			m, _ := glob(filepath.Join(s, sub))
			for _, d := range m {
				add(d)
			}
		}
	}
	if c := getenv("CONDA_PREFIX"); c != "" {
		add(filepath.Join(c, "lib"))
	}
	return dirs
}

// A libLoadError lists every library tried and why each failed.
type libLoadError struct {
	Lib   string
	Tried []string
}

func (e *libLoadError) Error() string {
	return fmt.Sprintf("cannot load %s (tried %s); install the CUDA toolkit's NVRTC (e.g. apt-get install cuda-nvrtc-13-0, or cuda-nvrtc-12-x on a CUDA 12 driver) or put its lib folder on LD_LIBRARY_PATH",
		e.Lib, strings.Join(e.Tried, "; "))
}

// loadFirst opens the first candidate that open accepts and returns it;
// when none opens, the error names each and why.
func loadFirst(lib string, candidates []string, open func(string) error) (string, error) {
	e := &libLoadError{Lib: lib}
	for _, c := range candidates {
		err := open(c)
		if err == nil {
			return c, nil
		}
		e.Tried = append(e.Tried, c+": "+err.Error())
	}
	return "", e
}
