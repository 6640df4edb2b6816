package devicetest

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels/device"
)

func TestMemory(t *testing.T) {
	g := &GPU{AllocLimit: 64}
	a, _ := g.Alloc(32)
	b, _ := g.Alloc(4) // rounded up to 16, as the driver's allocations are
	if _, err := g.Alloc(32); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("a third allocation past 64 bytes: err %v, want %v", err, ErrOutOfMemory)
	}
	if err := g.Memset8(a+8, 0xff, 8); err != nil {
		t.Fatal(err)
	}
	if err := g.CopyDtoD(b, a+4, 8); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 8)
	if err := g.Read(got, b); err != nil || !bytes.Equal(got, []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("read %v, %v", got, err)
	}
	if err := g.Read(make([]byte, 17), b); err == nil || !strings.Contains(err.Error(), "illegal address: 17 bytes at buf1") {
		t.Errorf("a read past the allocation: err %v", err)
	}
	want := "alloc 32 = buf0; alloc 4 = buf1; alloc 32: out of memory; memset8 buf0+8 0xff 8; copy buf1 buf0+4 8; read buf1 8; read buf1 17"
	if got := strings.Join(g.Log, "; "); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
	g.Free(a)
	g.Free(b)
	if n, _ := g.Live(); n != 0 {
		t.Errorf("%d allocations live after freeing both", n)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second free of an allocation did not panic")
		}
	}()
	g.Free(a)
}

func TestKernels(t *testing.T) {
	g := &GPU{LaunchTime: 3}
	p, _ := g.Alloc(8)
	m, _ := g.Module("m")
	fn, _ := m.Func("inc")
	g.Kernels = map[string]func(*GPU, device.Launch){"inc": func(g *GPU, l device.Launch) { g.Mem(device.Ptr(l.Args[0]), 1)[0] += byte(l.Args[1]) }}
	k := g.Kernel(device.Launch{Func: fn, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []uint64{uint64(p), 2}})
	if d, err := g.Time(k.Enqueue, 3, true); err != nil || d != 9 {
		t.Errorf("Time of 3 launches = %v, %v; want 9", d, err)
	}
	k.SetArg(1, 10)
	gr, _ := g.Capture(k.Enqueue, 2)
	if err := gr.Replay(1); err != nil {
		t.Fatal(err)
	}
	if v := g.Mem(p, 1)[0]; v != 3*2+2*10 {
		t.Errorf("memory %d after 3 launches adding 2 and 2 adding 10, want 26", v)
	}
	if _, kernels := g.Live(); kernels != 1 {
		t.Errorf("%d kernels live, want 1", kernels)
	}
	k.Free()
	if _, kernels := g.Live(); kernels != 0 || m.Hash("a", "b") != "m:a,b" {
		t.Errorf("%d kernels live after Free; hash %q", kernels, m.Hash("a", "b"))
	}
}
