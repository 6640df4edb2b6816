package device

// A Ptr is an address in device memory. Addresses inside an allocation are
// reached by adding to it.
type Ptr uint64

// Memory is a GPU's device memory. Sets and copies are enqueued on the
// device's stream; Read waits for it.
type Memory interface {
	// Alloc allocates bytes (at least 16) of device memory.
	Alloc(bytes int64) (Ptr, error)
	// Free frees memory that Alloc returned.
	Free(p Ptr)
	// Memset8 enqueues setting bytes bytes from p to v.
	Memset8(p Ptr, v byte, bytes int64) error
	// CopyHtoD copies src to dst and waits until it has landed: a copy from
	// pageable memory may return before its DMA does, and nothing orders it
	// before kernels on a non-blocking stream.
	CopyHtoD(dst Ptr, src []byte) error
	// CopyDtoD enqueues a copy of bytes bytes from src to dst.
	CopyDtoD(dst, src Ptr, bytes int64) error
	// Read waits for the stream, then copies len(dst) bytes from src into dst.
	Read(dst []byte, src Ptr) error
}

// A Func is a kernel entry point of a loaded module.
type Func interface {
	// MaxActiveBlocks returns how many blocks of block threads (no dynamic
	// shared memory) are resident on one SM at once.
	MaxActiveBlocks(block int) (int, error)
	// AllowShared lets the kernel use bytes of dynamic shared memory,
	// beyond the default 48 KiB.
	AllowShared(bytes int) error
}

// A Module is compiled and loaded device code.
type Module interface {
	// Func returns the kernel entry point name.
	Func(name string) (Func, error)
	// Hash returns the ptx_sha256 of a benchmark made of the named entries:
	// the hash of their PTX and what it reaches, not the whole module's.
	Hash(entries ...string) string
}

// A Launch is one kernel launch: the function, its grid and block, its
// dynamic shared memory and its arguments, one 8-byte slot each (a 4-byte
// argument in the low half).
type Launch struct {
	Func        Func
	Grid, Block [3]uint32
	Shared      uint32
	Args        []uint64
}

// A Kernel is a launch made ready to enqueue: its arguments copied where
// the driver reads them.
type Kernel interface {
	// Enqueue issues n back-to-back launches on the device's stream.
	Enqueue(n int) error
	// SetArg overwrites argument i for the launches enqueued from now on.
	SetArg(i int, v uint64)
	// Free frees the arguments.
	Free()
}

// A GPU is a device as a suite's setup uses it: its stream's timing,
// memory, the built-in modules, launches on its stream, and its size.
type GPU interface {
	Device
	Memory
	// Module returns the built-in module name (cu/NAME.cu), compiled and
	// loaded.
	Module(name string) (Module, error)
	// Compile returns source (file names it in messages) compiled for the
	// device with the session's options and options, and loaded.
	Compile(file, source string, options []string) (Module, error)
	// Kernel makes l ready to enqueue on the device's stream.
	Kernel(l Launch) Kernel
	// SMCount is the number of streaming multiprocessors.
	SMCount() int
}
