//go:build cuda

package kernels

/*
#include <stdlib.h>

// pg_connections_set says whether pg_one_connection set the variable.
static int pg_connections_set;

// pg_one_connection runs when the binary is loaded, before the Go runtime
// starts and so before gorgonia.org/cu's init calls cuInit, which is when
// the driver reads CUDA_DEVICE_MAX_CONNECTIONS. A value already in the
// environment is kept. The Go runtime reads the environment the process
// started with, so child processes (command suites) do not inherit it.
__attribute__((constructor)) static void pg_one_connection(void) {
	if (getenv("CUDA_DEVICE_MAX_CONNECTIONS") == NULL) {
		setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
		pg_connections_set = 1;
	}
}

static const char* pg_connections(void) { return getenv("CUDA_DEVICE_MAX_CONNECTIONS"); }
static int pg_connections_by_us(void) { return pg_connections_set; }
*/
import "C"

// perfgate's CUDA contexts run with one hardware work queue
// (CUDA_DEVICE_MAX_CONNECTIONS=1) unless the environment names another
// number. Every context perfgate makes uses a single stream, so more queues
// buy nothing, and each costs host memory: on the lent H100 a context's
// peak RSS went from 107 to 60 MiB, a context made for a draw (measure.DrawsFor)
// from 90 to 43 MiB, and one round of the default PR run from 481–577 to
// 378–435 MiB, with the 126 benchmarks' medians unchanged (ratio 1.0005;
// docs/gpu.md, "Between processes").

// connections returns the value the driver saw, for the environment
// fingerprint, marked when perfgate chose it.
func connections() string {
	v := C.pg_connections()
	if v == nil {
		return ""
	}
	s := C.GoString(v)
	if C.pg_connections_by_us() != 0 {
		s += " (perfgate's default)"
	}
	return s
}
