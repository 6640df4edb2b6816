//go:build !cuda

package kernels

// Devices fails with ErrNoCUDA.
func Devices() ([]Device, error) { return nil, ErrNoCUDA }
