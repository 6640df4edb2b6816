//go:build !unix

package benchpkg

// cpuTime is not available here: -1 leaves the cpu-ns/op metric out.
func cpuTime() int64 { return -1 }
