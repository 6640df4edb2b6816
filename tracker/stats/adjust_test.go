package stats

import "testing"

func TestAdjustProperties(t *testing.T) {
	p := []float64{0.04, 1e-7, 0.5, 0.01, 0.011, 0.9, 3e-6}
	for _, adj := range []struct {
		name string
		f    func([]float64) []float64
	}{{"BH", AdjustBH}, {"Holm", AdjustHolm}} {
		t.Run(adj.name, func(t *testing.T) {
			q := adj.f(p)
			for i := range p {
				if q[i] < p[i] || q[i] > 1 {
					t.Errorf("adjusted[%d] = %v, want in [p=%v, 1]", i, q[i], p[i])
				}
				for j := range p {
					if p[i] < p[j] && q[i] > q[j] {
						t.Errorf("order broken: p[%d]=%v < p[%d]=%v but %v > %v", i, p[i], j, p[j], q[i], q[j])
					}
				}
			}
			if got := adj.f(nil); len(got) != 0 {
				t.Errorf("adjust(nil) = %v", got)
			}
		})
	}
}
