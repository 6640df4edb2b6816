package measure

import (
	"strings"
	"testing"
	"time"
)

func TestNewPacer(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		want  Pacer
		isErr bool
	}{
		{"", Pacer{Auto: true}, false},
		{"auto", Pacer{Auto: true}, false},
		{"off", Pacer{}, false},
		{"1", Pacer{Ratio: 1}, false},
		{"0.25", Pacer{Ratio: 0.25}, false},
		{"-1", Pacer{}, true},
		{"fast", Pacer{}, true},
		{"1000", Pacer{}, true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			p, err := NewPacer(tc.mode)
			if (err != nil) != tc.isErr || p != tc.want {
				t.Errorf("NewPacer(%q) = %+v, %v; want %+v, error %v", tc.mode, p, err, tc.want, tc.isErr)
			}
		})
	}
}

func TestThrottled(t *testing.T) {
	for _, tc := range []struct {
		mask uint64
		want bool
	}{
		{0, false}, {0x1, false}, {0x2 | 0x10 | 0x100, false}, // idle, app clocks, sync boost, display
		{0x4, true}, {0x8, true}, {0x20, true}, {0x40, true}, {0x80, true}, {0x1 | 0x4, true},
	} {
		if got := Throttled(tc.mask); got != tc.want {
			t.Errorf("Throttled(%#x) = %v, want %v", tc.mask, got, tc.want)
		}
	}
}

// A step is one sample offered to a Pacer: throttled or not, at ms of sampling.
type step struct {
	throttled bool
	ms        int
}

func TestPacerJudge(t *testing.T) {
	const k, r, x = keepSample, retakeSample, restartSampling
	for _, tc := range []struct {
		name      string
		mode      string
		steps     []step
		want      []verdict
		wantRatio float64
		retaken   int
		kept      int
	}{
		{"never throttled: no idle, every sample kept", "auto",
			[]step{{false, 0}, {false, 5}, {false, 900}}, []verdict{k, k, k}, 0, 0, 0},
		{"the first throttled sample restarts at ratio 1; the next 500 ms are retaken", "auto",
			[]step{{false, 0}, {true, 3}, {false, 6}, {false, 502}, {false, 503}}, []verdict{k, x, r, r, k}, 1, 3, 0},
		{"throttled within the settle time: retaken, no widening", "auto",
			[]step{{true, 0}, {true, 50}, {true, 499}, {false, 600}, {false, 998}, {false, 999}},
			[]verdict{x, r, r, r, r, k}, 1, 5, 0},
		{"throttled after the settle time: widened again, up to 4", "auto",
			[]step{{true, 0}, {true, 500}, {true, 1000}, {true, 1400}}, []verdict{x, r, r, r}, 4, 4, 0},
		{"at the widest ratio, after settling, every sample is kept", "auto",
			[]step{{true, 0}, {true, 500}, {true, 1000}, {true, 1200}, {true, 1500}, {false, 1510}, {true, 1600}},
			[]verdict{x, r, r, r, k, k, k}, 4, 4, 2},
		{"after GiveUp (1 s here) every sample is kept", "auto",
			[]step{{true, 0}, {true, 600}, {true, 999}, {true, 1000}, {false, 1001}}, []verdict{x, r, r, k, k}, 2, 3, 1},
		{"off keeps and counts throttled samples", "off",
			[]step{{true, 0}, {false, 1}, {true, 2}}, []verdict{k, k, k}, 0, 0, 2},
		{"a fixed ratio never widens", "2",
			[]step{{true, 0}, {true, 900}}, []verdict{k, k}, 2, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPacer(tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tc.name, "after GiveUp") {
				p.GiveUp = time.Second
			}
			for i, s := range tc.steps {
				if got := p.Judge(s.throttled, time.Duration(s.ms)*time.Millisecond); got != tc.want[i] {
					t.Errorf("step %d %+v: verdict %d, want %d", i, s, got, tc.want[i])
				}
			}
			if p.Ratio != tc.wantRatio || p.Retaken != tc.retaken || p.Kept != tc.kept {
				t.Errorf("ratio %g retaken %d kept %d; want %g %d %d", p.Ratio, p.Retaken, p.Kept, tc.wantRatio, tc.retaken, tc.kept)
			}
		})
	}
}

func TestPacerGapAndRecord(t *testing.T) {
	p := Pacer{Ratio: 1.5}
	if g := p.Gap(2 * time.Millisecond); g != 3*time.Millisecond {
		t.Errorf("gap(2ms) at 1.5 = %v, want 3ms", g)
	}
	p.Gap(time.Millisecond)
	p.Retaken, p.Kept = 3, 1
	m, info := map[string]float64{}, map[string]string{}
	p.Record(m, info, "")
	want := map[string]float64{"throttled_retaken": 3, "throttled_kept": 1, "pace_ratio": 1.5, "pace_idle_ms": 4.5}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("metrics[%s] = %g, want %g", k, m[k], v)
		}
	}
	if got := info["pacing"]; got != "auto: idle 1.5× each sample's GPU time; throttled samples 3 retaken, 1 kept" {
		t.Errorf("info.pacing = %q", got)
	}

	// An unthrottled benchmark under the default rule records nothing.
	m, info = map[string]float64{}, map[string]string{}
	q := Pacer{Auto: true}
	q.Gap(time.Millisecond)
	q.Record(m, info, PaceAuto)
	if len(m) != 0 || len(info) != 0 {
		t.Errorf("unthrottled auto run recorded %v %v, want nothing", m, info)
	}
}
