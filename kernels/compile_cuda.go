//go:build cuda

package kernels

import (
	"embed"
	"fmt"
	"strings"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
)

//go:embed cu/*.cu
var cuSources embed.FS

// builtinSource returns common.cu followed by cu/NAME.cu (harness.cu alone).
func builtinSource(name string) (string, error) {
	if name == "harness" {
		b, err := cuSources.ReadFile("cu/harness.cu")
		return string(b), err
	}
	common, err := cuSources.ReadFile("cu/common.cu")
	if err != nil {
		return "", err
	}
	body, err := cuSources.ReadFile("cu/" + name + ".cu")
	if err != nil {
		return "", err
	}
	return string(common) + "\n#line 1 \"" + name + ".cu\"\n" + string(body), nil
}

// nvrtcOptions are the options every compilation gets: the device's exact
// virtual architecture (the driver JIT-compiles the PTX for the exact SM).
func nvrtcOptions(arch string) []string {
	return []string{"--gpu-architecture=" + arch, "--std=c++17"}
}

// A module is a loaded CUDA module and its PTX.
type module struct {
	mod cu.Module
	ptx string
	fns map[string]cu.Function
}

// Hash returns the ptx_sha256 of a benchmark made of the named entries:
// the hash of those kernels' PTX and what they reach (entryHash), not of
// the whole module, so an unchanged kernel keeps its hash when a
// neighbour in its source file changes.
func (m *module) Hash(entries ...string) string { return entryHash(m.ptx, entries...) }

// Func returns the kernel entry point name, for the device seam.
func (m *module) Func(name string) (device.Func, error) {
	f, err := m.fn(name)
	if err != nil {
		return nil, err
	}
	return cudaFunc{fn: f, name: name}, nil
}

// fn returns the kernel entry point name.
func (m *module) fn(name string) (cu.Function, error) {
	if f, ok := m.fns[name]; ok {
		return f, nil
	}
	f, err := m.mod.Function(name)
	if err != nil {
		return f, wrap("kernel "+name, err)
	}
	m.fns[name] = f
	return f, nil
}

// A compileError is NVRTC's refusal, with its log.
type compileError struct {
	File string
	Log  string
	Err  error
}

func (e *compileError) Error() string {
	return fmt.Sprintf("compile %s: %v\n%s", e.File, e.Err, strings.TrimSpace(e.Log))
}
func (e *compileError) Unwrap() error { return e.Err }

// load compiles source (named file in messages) with the session's options
// plus extra, through the PTX cache, and loads it. Modules are kept for the
// session's life.
func (g *gpu) load(file, source string, extra []string) (*module, error) {
	opts := append(nvrtcOptions(g.arch), extra...)
	key := ptxKey(source, g.arch, g.nvrtc, opts)
	if m, ok := g.modules[key]; ok {
		return m, nil
	}
	ptx, hit, err := "", false, error(nil)
	if pm, ok := g.parent.module(key); ok { // a draw loads the session's PTX
		ptx, hit = pm.ptx, true
	} else {
		ptx, hit, err = ptxCache{dir: cacheDir(g.cacheDir)}.get(key)
	}
	if err != nil || !hit {
		if ptx, err = compile(file, source, opts); err != nil {
			return nil, err
		}
		_ = ptxCache{dir: cacheDir(g.cacheDir)}.put(key, ptx) // a read-only cache only costs a recompile next time
	}
	mod, err := cu.LoadData(ptx)
	if err != nil {
		return nil, wrap("load module "+file+" (cuModuleLoadData)", err)
	}
	m := &module{mod: mod, ptx: ptx, fns: map[string]cu.Function{}}
	g.modules[key] = m
	return m, nil
}

// module returns the module loaded under key in g (none when g is nil).
func (g *gpu) module(key string) (*module, bool) {
	if g == nil {
		return nil, false
	}
	m, ok := g.modules[key]
	return m, ok
}

func compile(file, source string, opts []string) (string, error) {
	lb, err := loadNVRTC()
	if err != nil {
		return "", err
	}
	ptx, log, err := lb.compilePTX(file, source, opts)
	if err != nil {
		if log == "" {
			return "", err
		}
		return "", &compileError{File: file, Log: log, Err: err}
	}
	return strings.TrimRight(ptx, "\x00"), nil
}

// loadBuiltin loads a built-in suite's module.
func (g *gpu) loadBuiltin(name string) (*module, error) {
	src, err := builtinSource(name)
	if err != nil {
		return nil, err
	}
	return g.load(name+".cu", src, nil)
}
