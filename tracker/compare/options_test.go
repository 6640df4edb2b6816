package compare

import (
	"errors"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		glob, key string
		want      bool
	}{
		{"elementwise/*", "elementwise/add/fp32/n=1024", true}, // a leading run of segments
		{"elementwise/add", "elementwise/add/fp32/n=1024", true},
		{"elementwise/add", "elementwise/addx/fp32", false},
		{"elementwise/*/fp16/*", "elementwise/add/fp32/n=1024", false},
		{"elementwise/*/fp32/*", "elementwise/add/fp32/n=1024", true},
		{"*/*/bf16", "gemm/m=4096/bf16", true},
		{"gemm/*/bf16/x", "gemm/m=4096/bf16", false}, // longer than the key
		{"gemm*", "gemm/x", true},
		{"*", "any/thing", true},
		{"copy/d2d", "copy/d2d", true},
		{"[", "x", false}, // bad pattern: no match
	}
	for _, tt := range tests {
		t.Run(tt.glob+" "+tt.key, func(t *testing.T) {
			if got := Match(tt.glob, tt.key); got != tt.want {
				t.Errorf("Match(%q, %q) = %v, want %v", tt.glob, tt.key, got, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mod    func(*Options)
		option string // "" = valid
	}{
		{"defaults", func(*Options) {}, ""},
		{"alpha 0", func(o *Options) { o.Alpha = 0 }, "Alpha"},
		{"alpha 1", func(o *Options) { o.Alpha = 1 }, "Alpha"},
		{"negative threshold", func(o *Options) { o.Threshold = -0.1 }, "Threshold"},
		{"zero threshold", func(o *Options) { o.Threshold = 0 }, ""},
		{"min samples 1", func(o *Options) { o.MinSamples = 1 }, "MinSamples"},
		{"correction", func(o *Options) { o.Correction = "bonferroni" }, "Correction"},
		{"empty correction", func(o *Options) { o.Correction = "" }, "Correction"},
		{"bad override glob", func(o *Options) { o.Overrides = []Override{{Glob: "a/[", Threshold: -1}} }, "Overrides[0].Glob"},
		{"bad override better", func(o *Options) { o.Overrides = []Override{{Glob: "a", Threshold: -1, Better: "up"}} }, "Overrides[0].Better"},
		{"good override", func(o *Options) { o.Overrides = []Override{{Glob: "a/*", Threshold: 0.2, Better: model.Higher}} }, ""},
		{"bad ignore", func(o *Options) { o.Ignore = []string{"ok", "[x"} }, "Ignore[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			tt.mod(&o)
			err := o.Validate()
			var oe *OptionError
			switch {
			case tt.option == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.option != "" && !errors.As(err, &oe):
				t.Errorf("error %v, want an *OptionError for %s", err, tt.option)
			case tt.option != "" && oe.Option != tt.option:
				t.Errorf("error names %s, want %s", oe.Option, tt.option)
			}
		})
	}
}

func TestSettingsFor(t *testing.T) {
	o := DefaultOptions()
	o.Overrides = []Override{
		{Glob: "gemm/*", Threshold: 0.05},
		{Glob: "copy", Threshold: -1, Better: model.Higher},
		{Glob: "x/a[1]", Threshold: 0.3, Exact: true},
		{Glob: "x/a", Threshold: 0.2, Exact: true},
	}
	if s := o.settingsFor("x/a[1]", model.Lower); s.threshold != 0.3 {
		t.Errorf("exact key with metacharacters: %+v", s)
	}
	if s := o.settingsFor("x/a/b", model.Lower); s.threshold != 0.10 {
		t.Errorf("exact override applied below its key: %+v", s)
	}
	if s := o.settingsFor("x/a", model.Lower); s.threshold != 0.2 {
		t.Errorf("exact key: %+v", s)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("exact override with metacharacters rejected: %v", err)
	}
	if s := o.settingsFor("gemm/bf16/m=1", model.Lower); s.threshold != 0.05 || s.better != model.Lower {
		t.Errorf("gemm: %+v", s)
	}
	if s := o.settingsFor("copy/d2d", model.Lower); s.threshold != 0.10 || s.better != model.Higher {
		t.Errorf("copy: %+v", s)
	}
	if s := o.settingsFor("other/x", model.Higher); s.threshold != 0.10 || s.better != model.Higher {
		t.Errorf("other: %+v", s)
	}
}
