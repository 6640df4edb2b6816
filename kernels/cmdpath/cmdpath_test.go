package cmdpath

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels/suite"
)

func TestRingQueue(t *testing.T) {
	q := newRingQueue[int](3)
	for i := 1; i <= 3; i++ {
		if !q.tryPush(i) {
			t.Fatalf("push %d into a queue of 3 failed", i)
		}
	}
	if q.tryPush(4) {
		t.Fatal("push into a full queue succeeded")
	}
	var got []int
	for i := 0; i < 2; i++ {
		v, _ := q.tryPop()
		got = append(got, v)
	}
	q.push(4) // wraps around
	q.push(5)
	for v, ok := q.tryPop(); ok; v, ok = q.tryPop() {
		got = append(got, v)
	}
	if want := []int{1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("popped %v, want %v", got, want)
	}
}

func TestPoolClass(t *testing.T) {
	for _, tt := range []struct{ n, want int }{
		{1, 0}, {1024, 0}, {1025, 1}, {2048, 1}, {64 * kb, 6}, {mb, 10}, {mb + 1, -1},
	} {
		if got := poolClass(tt.n); got != tt.want {
			t.Errorf("poolClass(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

func TestBufPoolReuses(t *testing.T) {
	var p bufPool
	a := p.get(3000)
	if len(a) != 3000 || cap(a) != 4096 {
		t.Fatalf("get(3000): len %d cap %d, want 3000 and 4096", len(a), cap(a))
	}
	a[0] = 42
	p.put(a)
	if b := p.get(4000); &b[0] != &a[0] || len(b) != 4000 {
		t.Error("get after put did not reuse the buffer of the same class")
	}
	if c := p.get(3000); &c[0] == &a[0] {
		t.Error("a buffer was handed out twice")
	}
}

func TestSharedBufRefs(t *testing.T) {
	b := newSharedBuf(16)
	c := b.clone()
	if &c.r.data[0] != &b.r.data[0] {
		t.Fatal("clone copied the bytes")
	}
	b.release()
	if c.r.data == nil {
		t.Fatal("released while a reference was left")
	}
	c.release()
	if c.r.data != nil || c.r.refs.Load() != 0 {
		t.Error("the last release kept the bytes")
	}
}

func TestCmdpathCatalog(t *testing.T) {
	var host, gpu []string
	for _, sel := range suite.Select(Suite, suite.Options{}) {
		b := sel.Case.Name(sel.Mode)
		if strings.HasSuffix(b, "/mode=host") {
			host = append(host, b)
		} else {
			gpu = append(gpu, b)
		}
	}
	for _, want := range []string{
		"send/queue=chan/cap=100/cmd=small/mode=host", "send/queue=mutex/cap=1000/cmd=large/mode=host",
		"roundtrip/via=polling/mode=host", "throughput/queue=chan/batch=10000/mode=host",
		"backpressure/queue=chan/cap=100/consumer=10us/commands=1000/mode=host",
		"clone/bytes=1M/copy=zero/mode=host", "pool/op=alloc_free/bytes=1M/impl=pool/mode=host",
		"pool/op=cycle/bytes=1K+64K+1M/impl=pool/mode=host", "sequential/commands=100/via=direct/mode=host",
		"contention/queue=mutex/producers=4/commands=250/cap=100/mode=host",
	} {
		if !slices.Contains(host, want) {
			t.Errorf("cmdpath lacks %s", want)
		}
	}
	for _, want := range []string{"submit/work=launch/via=chan/commands=1000/mode=gpu",
		"devpool/bytes=1M/impl=cuMemAllocAsync/mode=gpu", "htod/bytes=16M/host=mapped/mode=gpu"} {
		if !slices.Contains(gpu, want) {
			t.Errorf("cmdpath lacks %s", want)
		}
	}
}

// TestRunHostCmdpath runs every host benchmark of cmdpath briefly and checks
// what their results must satisfy whatever the machine.
func TestRunHostCmdpath(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the host benchmarks (a few seconds)")
	}
	o := suite.Options{Fast: true, MaxTime: 30 * time.Millisecond}
	bs, err := RunHost(context.Background(), suite.Select(Suite, o), o)
	if err != nil {
		t.Fatal(err)
	}
	h := 0
	for _, sel := range suite.Select(Suite, o) {
		if sel.Mode == OnHost {
			h++
		}
	}
	if len(bs) != h {
		t.Fatalf("%d benchmarks, want the %d host ones", len(bs), h)
	}
	med := map[string]float64{}
	for _, b := range bs {
		if b.Error != "" || len(b.Samples) == 0 || b.Unit != "us" {
			t.Errorf("%s: error %q, %d samples, unit %q", b.Name, b.Error, len(b.Samples), b.Unit)
			continue
		}
		for _, v := range b.Samples {
			if v <= 0 {
				t.Errorf("%s: sample %v", b.Name, v)
				break
			}
		}
		med[b.Name] = b.Metrics["median_us"]
	}
	// 1000 commands at 10 µs each cannot take less than 10 ms.
	if v := med["backpressure/queue=chan/cap=100/consumer=10us/commands=1000/mode=host"]; v < 10000 {
		t.Errorf("backpressure took %v µs, less than 1000 × 10 µs", v)
	}
	// Copying 1 MiB moves a million bytes; sharing it touches one counter.
	if z, d := med["clone/bytes=1M/copy=zero/mode=host"], med["clone/bytes=1M/copy=deep/mode=host"]; !(d > 10*z) {
		t.Errorf("deep clone of 1M (%v µs) is not 10× the zero-copy one (%v µs)", d, z)
	}
	for _, b := range bs {
		if b.Name == "send/queue=chan/cap=100/cmd=small/mode=host" && b.Metrics["mutex_over_chan"] <= 0 {
			t.Errorf("%s has no mutex_over_chan ratio: %v", b.Name, b.Metrics)
		}
	}
}
