package kernels

import (
	"math"
	"testing"
)

func TestCPUOp(t *testing.T) {
	tests := []struct {
		op   string
		a, b float32
		want float32
	}{
		{"add", 1.5, 2.25, 3.75}, {"mul", 1.5, -2, -3}, {"div", 1, 4, 0.25}, {"relu", -1, 0, 0}, {"relu", 2, 0, 2},
		// torch.sigmoid(torch.tensor(1.0)), F.gelu(torch.tensor(1.0), approximate="tanh"), F.silu(torch.tensor(1.0))
		{"sigmoid", 1, 0, 0.7310585975646973}, {"gelu", 1, 0, 0.8411920070648193}, {"swish", 1, 0, 0.7310585975646973},
		{"gelu", -2, 0, -0.04540228843688965},
	}
	for _, tt := range tests {
		if got := cpuOp(tt.op, tt.a, tt.b); math.Abs(float64(got-tt.want)) > 1e-7 {
			t.Errorf("cpuOp(%s, %g, %g) = %.9g, want %.9g", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
}
