package cmdpath

import (
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

// Suite is the cmdpath suite: the host side of a GPU runtime's command
// path, how fast commands get from producer goroutines to the goroutine
// that owns the CUDA context. Its mode=host benchmarks only dequeue (no GPU,
// so they run in every build and in CI: RunHost); its mode=gpu benchmarks
// make the consumer really submit to the GPU, and compare device-memory
// pools and host-memory kinds (package kernels builds them, with -tags cuda).
var Suite = suite.Def{Name: "cmdpath",
	Desc: "host→GPU command path: channel vs mutex ring queue send/round trip/throughput, backpressure, " +
		"zero-copy buffers, memory pools; mode=host needs no GPU, mode=gpu submits kernels and copies",
	Cases: cases, Modes: places, RunHost: RunHost}

// Where a cmdpath benchmark runs, its mode= parameter: on the host alone,
// or with the consumer submitting to the GPU.
const (
	OnHost = "host"
	OnGPU  = "gpu"
)

// gpuOps are the cmdpath operations that run on the GPU.
var gpuOps = map[string]bool{"submit": true, "devpool": true, "htod": true}

// places returns where case c runs, its one mode: OnGPU or OnHost.
func places(c suite.Case) []string {
	if gpuOps[c.Op] {
		return []string{OnGPU}
	}
	return []string{OnHost}
}

// newCase is the cmdpath case of op with the parameters kv (key, value, …).
func newCase(op string, kv ...string) suite.Case {
	c := suite.Case{Suite: "cmdpath", Op: op}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Params = append(c.Params, suite.Param{K: kv[i], V: kv[i+1]})
	}
	return c
}

const (
	kb = 1 << 10
	mb = 1 << 20
)

// The command sizes of the send benchmarks.
var cmdSizes = []string{"small", "medium", "large"}

// The queues compared: a buffered channel and a sync.Mutex-guarded ring.
var cmdQueues = []string{"chan", "mutex"}

func cases(string, []string) []suite.Case {
	var cs []suite.Case
	add := func(op string, kv ...string) { cs = append(cs, newCase(op, kv...)) }
	for _, q := range cmdQueues {
		for _, capacity := range []int{100, 1000} {
			for _, sz := range cmdSizes {
				add("send", "queue", q, "cap", strconv.Itoa(capacity), "cmd", sz)
			}
		}
	}
	for _, q := range cmdQueues {
		for _, sz := range cmdSizes {
			add("push_pop", "queue", q, "cmd", sz)
		}
	}
	add("roundtrip", "via", "reply_chan")
	add("roundtrip", "via", "polling")
	for _, q := range cmdQueues {
		for _, b := range []int{10, 100, 1000, 10000} {
			add("throughput", "queue", q, "batch", strconv.Itoa(b))
		}
	}
	for _, q := range cmdQueues {
		add("backpressure", "queue", q, "cap", "100", "consumer", "10us", "commands", "1000")
	}
	for _, n := range []int64{kb, 64 * kb, mb} {
		add("clone", "bytes", suite.SizeLabel(n), "copy", "zero")
		add("clone", "bytes", suite.SizeLabel(n), "copy", "deep")
	}
	for _, n := range []int64{kb, mb} {
		add("pool", "op", "alloc_free", "bytes", suite.SizeLabel(n), "impl", "pool")
		add("pool", "op", "alloc_free", "bytes", suite.SizeLabel(n), "impl", "make")
	}
	add("pool", "op", "write", "bytes", "1K", "impl", "pool")
	add("pool", "op", "read", "bytes", "1K", "impl", "pool")
	add("pool", "op", "cycle", "bytes", "1K+64K+1M", "impl", "pool")
	add("sequential", "commands", "100", "via", "direct")
	add("sequential", "commands", "100", "via", "chan")
	for _, q := range cmdQueues {
		add("contention", "queue", q, "producers", "4", "commands", "250", "cap", "100")
	}
	return append(cs, gpuCases()...)
}

// gpuCases are the end-to-end variants: the consumer launches a kernel
// or copies host to device; device memory from cuMemAlloc vs a stream-ordered
// pool; pageable vs pinned vs mapped host memory.
func gpuCases() []suite.Case {
	var cs []suite.Case
	add := func(op string, kv ...string) { cs = append(cs, newCase(op, kv...)) }
	add("submit", "work", "launch", "via", "direct", "commands", "1000")
	add("submit", "work", "launch", "via", "chan", "commands", "1000")
	add("submit", "work", "launch", "via", "mutex", "commands", "1000")
	add("submit", "work", "htod_64K", "via", "direct", "commands", "1000")
	add("submit", "work", "htod_64K", "via", "chan", "commands", "1000")
	for _, n := range []int64{kb, mb} {
		add("devpool", "bytes", suite.SizeLabel(n), "impl", "cuMemAlloc")
		add("devpool", "bytes", suite.SizeLabel(n), "impl", "cuMemAllocAsync")
	}
	for _, n := range []int64{64 * kb, mb, 16 * mb} {
		for _, h := range []string{"pageable", "pinned", "mapped"} {
			add("htod", "bytes", suite.SizeLabel(n), "host", h)
		}
	}
	return cs
}
