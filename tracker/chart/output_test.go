package chart

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func TestTrendTitle(t *testing.T) {
	one := []trend.Series{{TrendSeries: model.TrendSeries{Suite: "elementwise", Name: "add/dtype=fp32"}}}
	tests := []struct {
		name   string
		series []trend.Series
		want   string
	}{
		{"one benchmark", one, "elementwise/add/dtype=fp32: median per run, 95% band, steps dashed"},
		{"several", append(one, one...), "add/*: median per run, 95% band, steps dashed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrendTitle("add/*", tt.series); got != tt.want {
				t.Errorf("TrendTitle = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOutputEncode: the image is o.Width × o.Height inches at 96 dpi, or
// the chart's fitted height when o.Height is 0.
func TestOutputEncode(t *testing.T) {
	p, err := Trend(trendFixture(t, false), "t")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		o    Output
		w, h int
	}{
		{Output{Format: "png", Width: 8}, 768, 384},
		{Output{Format: "png", Width: 5, Height: 3}, 480, 288},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := tt.o.Encode(&b, p, TrendHeight); err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(&b)
		if err != nil || cfg.Width != tt.w || cfg.Height != tt.h {
			t.Errorf("%+v: a %d×%d image (%v), want %d×%d", tt.o, cfg.Width, cfg.Height, err, tt.w, tt.h)
		}
	}
}
