package kernels

import (
	"testing"

	"github.com/perfgate/perfgate/kernels/suite"
)

// TestGemmTile: the 128×256 tile only where it still makes at least half
// as many blocks as SMs, BK = 64 where K allows.
func TestGemmTile(t *testing.T) {
	for _, tt := range []struct {
		m, n, k int64
		sms     int
		entry   string
		bn, bk  int64
	}{
		{4096, 4096, 4096, 132, "gemm_tiled256k64_fp16", 256, 64}, // 512 blocks
		{4096, 4096, 96, 132, "gemm_tiled256_fp16", 256, 32},      // K not a multiple of 64
		{1024, 1024, 1024, 132, "gemm_tiled_fp16", 128, 32},       // 32 blocks < 66
		{4096, 4224, 4096, 132, "gemm_tiled_fp16", 128, 32},       // N not a multiple of 256
	} {
		c := suite.Case{DType: "fp16", Rows: tt.m, Dim: tt.n, K: tt.k}
		entry, bn, bk := gemmTile(c, tt.sms)
		if entry != tt.entry || bn != tt.bn || bk != tt.bk {
			t.Errorf("gemmTile(%d×%d×%d, %d SMs) = %s %d %d, want %s %d %d", tt.m, tt.n, tt.k, tt.sms, entry, bn, bk, tt.entry, tt.bn, tt.bk)
		}
	}
}
