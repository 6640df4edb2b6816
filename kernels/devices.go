package kernels

// A Device is one GPU as the CUDA driver numbers it (CUDA_VISIBLE_DEVICES
// applied), with its UUID ("GPU-…", what CUDA_VISIBLE_DEVICES accepts) and
// model name.
type Device struct {
	Index      int
	UUID, Name string
}
