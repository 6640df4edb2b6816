// harness.cu: the blocking kernel. It holds the stream until the host sets
// *release, so that the start event, the timed launches and the stop event
// are all queued before the GPU reaches them: the events then time the GPU,
// not the CPU's launch rate (nvbench does the same). It gives up after
// max_ns and says so in *timed_out; that sample is discarded.
extern "C" __global__ void pg_block(volatile int* release, volatile int* timed_out, unsigned long long max_ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    while (*release == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > max_ns) { *timed_out = 1; return; }
    }
}
