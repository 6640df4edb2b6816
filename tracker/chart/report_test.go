package chart

import (
	"math"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestParseComparison(t *testing.T) {
	data := `{"threshold_pct": 5, "benchmarks": [{"suite": "s", "name": "a", "change": 0.12, "ci_low": 0.1, "ci_high": 0.14, "verdict": "regression"},
		{"suite": "s", "name": "b", "change": null, "ci_low": null, "ci_high": null, "verdict": "insufficient"}]}`
	bars, threshold, err := ParseComparison("r.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if threshold != 0.05 || len(bars) != 2 || bars[0].Label != "s/a" || bars[0].Change != 0.12 || bars[0].Verdict != "regression" || !math.IsNaN(bars[1].Change) {
		t.Errorf("threshold %v, bars %+v", threshold, bars)
	}
	if _, _, err := ParseComparison("r.json", []byte("gotest output")); !model.IsInputError(err) || !strings.HasPrefix(err.Error(), "r.json: not the JSON of compare") {
		t.Errorf("not JSON: error %v; want an input error naming the file", err)
	}
}

func TestOutputCheck(t *testing.T) {
	tests := []struct {
		o          Output
		wantFormat string
		wantErr    string
	}{
		{Output{Path: "t.PNG", Width: 8}, "png", ""},
		{Output{Path: "t.img", Format: "svg", Width: 8, Height: 3}, "svg", ""},
		{Output{Width: 8}, "", "--out:"},
		{Output{Path: "t.jpg", Width: 8}, "", `--format: "jpg" is not png or svg`},
		{Output{Path: "t.png", Width: 0}, "", "--width/--height:"},
		{Output{Path: "t.png", Width: 8, Height: 101}, "", "--width/--height:"},
	}
	for _, tt := range tests {
		t.Run(tt.o.Path+tt.wantErr, func(t *testing.T) {
			err := tt.o.Check()
			switch {
			case tt.wantErr == "" && (err != nil || tt.o.Format != tt.wantFormat):
				t.Errorf("format %q, error %v; want %q", tt.o.Format, err, tt.wantFormat)
			case tt.wantErr != "" && (!model.IsInputError(err) || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v; want an input error containing %q", err, tt.wantErr)
			}
		})
	}
}
