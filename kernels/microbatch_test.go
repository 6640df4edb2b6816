package kernels

import "testing"

// TestOpIndices: the first and last 16 ops and every 97th between are
// checked, every element of each.
func TestOpIndices(t *testing.T) {
	idx := opIndices(200, 2) // ops 0–15, 184–199 and 97: 33 ops
	if len(idx) != 66 || idx[0] != 0 || idx[31] != 31 || idx[32] != 194 || idx[33] != 195 || idx[65] != 399 {
		t.Errorf("opIndices(200, 2) = %d indices %v", len(idx), idx)
	}
}
