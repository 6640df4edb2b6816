package check

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestApplyConfig(t *testing.T) {
	cfg := &config.Config{
		Baseline:   config.Baseline{Branch: "trunk", Jobs: 5, Testbed: "h100-1", History: 30},
		Thresholds: config.Thresholds{Default: 0.05, Alpha: 0.05, MinSamples: 7, Overrides: []config.ThresholdOverride{{Glob: "k/*", Threshold: 0.2}}},
		Better:     []config.BetterOverride{{Glob: "k/rate*", Better: model.Higher}, {Glob: "*", Better: model.Lower}},
		Ignore:     []string{"noisy/*"},
	}
	keys := []model.Key{{Suite: "k", Name: "rate[x]"}, {Suite: "k", Name: "time"}, {Suite: "other", Name: "a"}, {Suite: "k", Name: "time"}}
	def := Settings{Query: Query{Branch: "main", Jobs: 3, History: 10}, Compare: compare.DefaultOptions()}
	tests := []struct {
		name     string
		explicit map[string]bool
		want     Settings
	}{
		{"the file fills what was not chosen", nil, func() Settings {
			s := def
			s.Query = Query{Branch: "trunk", Jobs: 5, Testbed: "h100-1", History: 30}
			s.Compare.HistoryJobs, s.Compare.Threshold, s.Compare.Alpha, s.Compare.MinSamples = 30, 0.05, 0.05, 7
			return s
		}()},
		{"what was chosen wins", map[string]bool{SetBranch: true, SetJobs: true, SetAlpha: true, SetThreshold: true, SetHistory: true}, func() Settings {
			s := def
			s.Query.Testbed = "h100-1"
			s.Compare.MinSamples = 7
			return s
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ApplyConfig(def, cfg, tt.explicit, keys)
			if got.Query != tt.want.Query {
				t.Errorf("query %+v, want %+v", got.Query, tt.want.Query)
			}
			g, w := got.Compare, tt.want.Compare
			if g.Threshold != w.Threshold || g.Alpha != w.Alpha || g.MinSamples != w.MinSamples || g.HistoryJobs != w.HistoryJobs {
				t.Errorf("threshold %v alpha %v min samples %d history %d; want %v %v %d %d",
					g.Threshold, g.Alpha, g.MinSamples, g.HistoryJobs, w.Threshold, w.Alpha, w.MinSamples, w.HistoryJobs)
			}
			// Overrides resolve both lists per benchmark, each key once,
			// sorted; the file's globs are escaped to the exact key.
			wantOv := []compare.Override{
				{Glob: `k/rate\[x\]`, Threshold: 0.2, Better: model.Higher},
				{Glob: "k/time", Threshold: 0.2, Better: model.Lower},
				{Glob: "other/a", Threshold: -1, Better: model.Lower},
			}
			if !reflect.DeepEqual(g.Overrides, wantOv) || !reflect.DeepEqual(g.Ignore, []string{"noisy/*"}) {
				t.Errorf("overrides %+v ignore %v, want %+v [noisy/*]", g.Overrides, g.Ignore, wantOv)
			}
		})
	}
	if got := ApplyConfig(def, nil, nil, keys); !reflect.DeepEqual(got, def) {
		t.Errorf("no config changed the settings: %+v", got)
	}
}

// TestApplyConfigCompare checks the statistics settings ApplyConfig takes
// from a config: the file's threshold, the flag's alpha, overrides per key.
func TestApplyConfigCompare(t *testing.T) {
	cfg := &config.Config{
		Thresholds: config.Thresholds{Default: 0.05, Alpha: 0.05, Overrides: []config.ThresholdOverride{{Glob: "k/*", Threshold: 0.2}}},
		Better:     []config.BetterOverride{{Glob: "k/rate*", Better: model.Higher}, {Glob: "*", Better: model.Lower}},
		Ignore:     []string{"noisy/*"},
	}
	keys := []model.Key{{Suite: "k", Name: "rate[x]"}, {Suite: "k", Name: "time"}, {Suite: "other", Name: "a"}, {Suite: "k", Name: "time"}}
	got := ApplyConfig(Settings{Compare: compare.DefaultOptions()}, cfg, map[string]bool{"alpha": true}, keys).Compare
	if got.Threshold != 0.05 || got.Alpha != compare.DefaultOptions().Alpha {
		t.Errorf("threshold %v alpha %v: want the file's threshold and the flag's alpha", got.Threshold, got.Alpha)
	}
	want := []compare.Override{
		{Glob: `k/rate\[x\]`, Threshold: 0.2, Better: model.Higher},
		{Glob: "k/time", Threshold: 0.2, Better: model.Lower},
		{Glob: "other/a", Threshold: -1, Better: model.Lower},
	}
	if !reflect.DeepEqual(got.Overrides, want) || !reflect.DeepEqual(got.Ignore, []string{"noisy/*"}) {
		t.Errorf("overrides %+v ignore %v", got.Overrides, got.Ignore)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	if !compare.Match(got.Overrides[0].Glob, "k/rate[x]") || compare.Match(got.Overrides[0].Glob, "k/ratex") {
		t.Error("the escaped glob does not match exactly its key")
	}
}

// TestApplyConfigCoversTable: every judging setting that compare's table
// gives a .perfgate.yml key is applied from the file under the table's
// name, and left alone when that name was chosen explicitly; so a key the
// table declares cannot go unread, nor be read under another name. A
// renamed setting's old key (Old.Config) applies the same, with a warning.
func TestApplyConfigCoversTable(t *testing.T) {
	values := map[string]string{ // a value of each key other than the default
		"thresholds.default": "7%", "thresholds.alpha": "0.05", "thresholds.correction": "holm",
		"thresholds.min_samples": "9", "thresholds.inconclusive": "fail",
		"baseline.history": "30", "baseline.branch": "dev", "baseline.jobs": "5", "baseline.testbed": "tb2",
	}
	def := Settings{Query: Query{Branch: DefaultBranch, Jobs: DefaultJobs, History: compare.DefaultHistory}, Compare: compare.DefaultOptions()}
	for _, s := range append(append([]compare.Setting(nil), compare.VerdictSettings...), compare.BaselineSettings...) {
		if s.Config == "" {
			continue
		}
		section, key, _ := strings.Cut(s.Config, ".")
		v, ok := values[s.Config]
		if !ok {
			t.Errorf("%s: no test value for %s", s.Name, s.Config)
			continue
		}
		parse := func(key string) *config.Config {
			cfg, err := config.Parse(".perfgate.yml", fmt.Appendf(nil, "%s:\n  %s: %s\nsuites:\n  - name: a\n    command:\n      run: x\n      format: gotest\n", section, key, v))
			if err != nil {
				t.Errorf("%s: %v", s.Config, err)
			}
			return cfg
		}
		cfg := parse(key)
		if cfg == nil {
			continue
		}
		got := ApplyConfig(def, cfg, nil, nil)
		if reflect.DeepEqual(got, def) {
			t.Errorf("%s: %s: %s changed nothing", s.Name, s.Config, v)
		}
		if got := ApplyConfig(def, cfg, map[string]bool{s.Name: true}, nil); !reflect.DeepEqual(got, def) {
			t.Errorf("%s: %s: %s applied although --%s was chosen: %+v", s.Name, s.Config, v, s.Name, got)
		}
		if len(cfg.Warnings()) != 0 {
			t.Errorf("%s: warnings %q", s.Config, cfg.Warnings())
		}
		if s.Old.Config == "" {
			continue
		}
		oldSection, oldKey, _ := strings.Cut(s.Old.Config, ".")
		if oldSection != section {
			t.Fatalf("%s: the old key %s is in another section", s.Name, s.Old.Config)
		}
		old := parse(oldKey)
		want := fmt.Sprintf(".perfgate.yml: line 2: %s is deprecated: name it %s", s.Old.Config, s.Config)
		switch {
		case old == nil:
		case !reflect.DeepEqual(ApplyConfig(def, old, nil, nil), got):
			t.Errorf("%s: %s: %s does not apply as %s does", s.Name, s.Old.Config, v, s.Config)
		case !reflect.DeepEqual(old.Warnings(), []string{want}):
			t.Errorf("%s: warnings %q, want %q", s.Old.Config, old.Warnings(), want)
		}
	}
}
