//go:build cuda

package kernels

import (
	"strconv"

	"gorgonia.org/cu"
)

// Devices lists the GPUs the driver sees, without creating a context.
func Devices() ([]Device, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, wrap("cuDeviceGetCount", err)
	}
	var out []Device
	for i := 0; i < n; i++ {
		d, err := cu.GetDevice(i)
		if err != nil {
			return nil, wrap("get device "+strconv.Itoa(i), err)
		}
		name, err := d.Name()
		if err != nil {
			return nil, wrap("device name", err)
		}
		id, err := d.UUID()
		if err != nil {
			return nil, wrap("device UUID", err)
		}
		out = append(out, Device{Index: i, UUID: "GPU-" + id.String(), Name: name})
	}
	return out, nil
}
