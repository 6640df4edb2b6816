//go:build cuda

package kernels

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"time"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/sharing"
)

// SharingWorker is one worker process of the sharing suite: it creates its
// own context on device 0, compiles (or reads from the PTX cache) and warms
// up the workload, writes "ready", waits for a line on in, runs w, and writes
// one SharingResult line to out.
func SharingWorker(ctx context.Context, w SharingWork, cacheDir string, in io.Reader, out io.Writer) error {
	if w.Blocks <= 0 || w.Threads <= 0 || w.Iters <= 0 || w.Launches <= 0 {
		return fmt.Errorf("sharing worker: every workload value must be positive: %+v", w)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g := &gpu{modules: map[string]*module{}, cacheDir: cacheDir}
	var err error
	if g.dev, err = cu.GetDevice(0); err != nil {
		return wrap("get device 0", err)
	}
	if g.ctx, err = g.dev.RetainPrimaryCtx(); err != nil {
		return wrap("retain primary context", err)
	}
	defer g.dev.ReleasePrimaryCtx()
	if err = cu.SetCurrentContext(g.ctx); err != nil {
		return wrap("set context", err)
	}
	if g.stream, err = cu.MakeStream(cu.NonBlocking); err != nil {
		return wrap("create stream", err)
	}
	defer g.stream.Destroy()
	if err = g.attributes(); err != nil {
		return err
	}
	m, err := g.loadBuiltin("cmdpath")
	if err != nil {
		return err
	}
	defer m.mod.Unload()
	fn, err := m.fn("pg_fma_work")
	if err != nil {
		return err
	}
	var bufs buffers
	defer bufs.free()
	dst, err := bufs.alloc(int64(w.Blocks*w.Threads) * 4)
	if err != nil {
		return err
	}
	l := &launch{fn: fn, grid: [3]uint32{uint32(w.Blocks), 1, 1}, block: [3]uint32{uint32(w.Threads), 1, 1},
		params: newParams(uint64(dst), uint64(w.Iters))}
	defer l.params.free()
	if err := l.enqueue(g.stream, 3); err != nil {
		return err
	}
	if err := wrap("cuStreamSynchronize", g.stream.Synchronize()); err != nil {
		return err
	}
	fmt.Fprintln(out, "ready")
	if _, err := bufio.NewReader(in).ReadString('\n'); err != nil {
		return fmt.Errorf("sharing worker: waiting for go: %w", err)
	}
	t0 := time.Now()
	if err := l.enqueue(g.stream, w.Launches); err != nil {
		return err
	}
	if err := wrap("cuStreamSynchronize", g.stream.Synchronize()); err != nil {
		return err
	}
	el := time.Since(t0)
	return json.NewEncoder(out).Encode(sharing.Result{ElapsedUS: float64(el.Nanoseconds()) / 1e3, Launches: w.Launches})
}
