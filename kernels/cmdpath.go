package kernels

import (
	"strconv"
)

// The cmdpath suite measures the host side of a GPU runtime's command path:
// how fast commands get from producer goroutines to the goroutine that owns
// the CUDA context. Its mode=host benchmarks only dequeue (no GPU, so they
// run in every build and in CI); its mode=gpu benchmarks make the consumer
// really submit to the GPU, and compare device-memory pools and host-memory
// kinds (they need -tags cuda).

// The modes of cmdpath benchmarks.
const (
	ModeHost = "host"
	ModeGPU  = "gpu"
)

// cmdpathGPUOps are the cmdpath operations that run on the GPU.
var cmdpathGPUOps = map[string]bool{"submit": true, "devpool": true, "htod": true}

func init() {
	suites = append(suites, suiteDef{name: "cmdpath",
		desc: "host→GPU command path: channel vs mutex ring queue send/round trip/throughput, backpressure, " +
			"zero-copy buffers, memory pools; mode=host needs no GPU, mode=gpu submits kernels and copies",
		cases: cmdpathCases})
	suiteModes["cmdpath"] = cmdpathModes
}

func cmdpathModes(c benchCase) []string {
	if cmdpathGPUOps[c.Op] {
		return []string{ModeGPU}
	}
	return []string{ModeHost}
}

// The command sizes of the send benchmarks.
var cmdSizes = []string{"small", "medium", "large"}

// The queues compared: a buffered channel and a sync.Mutex-guarded ring.
var cmdQueues = []string{"chan", "mutex"}

func cmdpathCases(string, []string) []benchCase {
	var cs []benchCase
	add := func(op string, ps ...param) { cs = append(cs, benchCase{Suite: "cmdpath", Op: op, Params: ps}) }
	for _, q := range cmdQueues {
		for _, capacity := range []int{100, 1000} {
			for _, sz := range cmdSizes {
				add("send", param{"queue", q}, param{"cap", strconv.Itoa(capacity)}, param{"cmd", sz})
			}
		}
	}
	for _, q := range cmdQueues {
		for _, sz := range cmdSizes {
			add("push_pop", param{"queue", q}, param{"cmd", sz})
		}
	}
	add("roundtrip", param{"via", "reply_chan"})
	add("roundtrip", param{"via", "polling"})
	for _, q := range cmdQueues {
		for _, b := range []int{10, 100, 1000, 10000} {
			add("throughput", param{"queue", q}, param{"batch", strconv.Itoa(b)})
		}
	}
	for _, q := range cmdQueues {
		add("backpressure", param{"queue", q}, param{"cap", "100"}, param{"consumer", "10us"}, param{"commands", "1000"})
	}
	for _, n := range []int64{kb, 64 * kb, mb} {
		add("clone", param{"bytes", sizeLabel(n)}, param{"copy", "zero"})
		add("clone", param{"bytes", sizeLabel(n)}, param{"copy", "deep"})
	}
	for _, n := range []int64{kb, mb} {
		add("pool", param{"op", "alloc_free"}, param{"bytes", sizeLabel(n)}, param{"impl", "pool"})
		add("pool", param{"op", "alloc_free"}, param{"bytes", sizeLabel(n)}, param{"impl", "make"})
	}
	add("pool", param{"op", "write"}, param{"bytes", "1K"}, param{"impl", "pool"})
	add("pool", param{"op", "read"}, param{"bytes", "1K"}, param{"impl", "pool"})
	add("pool", param{"op", "cycle"}, param{"bytes", "1K+64K+1M"}, param{"impl", "pool"})
	add("sequential", param{"commands", "100"}, param{"via", "direct"})
	add("sequential", param{"commands", "100"}, param{"via", "chan"})
	for _, q := range cmdQueues {
		add("contention", param{"queue", q}, param{"producers", "4"}, param{"commands", "250"}, param{"cap", "100"})
	}
	return append(cs, cmdpathGPUCases()...)
}

// cmdpathGPUCases are the end-to-end variants: the consumer launches a kernel
// or copies host to device; device memory from cuMemAlloc vs a stream-ordered
// pool; pageable vs pinned vs mapped host memory.
func cmdpathGPUCases() []benchCase {
	var cs []benchCase
	add := func(op string, ps ...param) { cs = append(cs, benchCase{Suite: "cmdpath", Op: op, Params: ps}) }
	add("submit", param{"work", "launch"}, param{"via", "direct"}, param{"commands", "1000"})
	add("submit", param{"work", "launch"}, param{"via", "chan"}, param{"commands", "1000"})
	add("submit", param{"work", "launch"}, param{"via", "mutex"}, param{"commands", "1000"})
	add("submit", param{"work", "htod_64K"}, param{"via", "direct"}, param{"commands", "1000"})
	add("submit", param{"work", "htod_64K"}, param{"via", "chan"}, param{"commands", "1000"})
	for _, n := range []int64{kb, mb} {
		add("devpool", param{"bytes", sizeLabel(n)}, param{"impl", "cuMemAlloc"})
		add("devpool", param{"bytes", sizeLabel(n)}, param{"impl", "cuMemAllocAsync"})
	}
	for _, n := range []int64{64 * kb, mb, 16 * mb} {
		for _, h := range []string{"pageable", "pinned", "mapped"} {
			add("htod", param{"bytes", sizeLabel(n)}, param{"host", h})
		}
	}
	return cs
}
