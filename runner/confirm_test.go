package runner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestConfirmUnits(t *testing.T) {
	cfg := &config.Config{File: "/repo/.perfgate.yml", Suites: []config.Suite{{Name: "mine"}}}
	cf := &Confirmer{Config: cfg}
	units, skipped := cf.Units([]model.Key{
		{Suite: "mine", Name: "a"}, {Suite: "mine", Name: "b"},
		{Suite: "elementwise", Name: "add/dtype=fp32/n=4K/mode=batch"}, {Suite: "elementwise", Name: "mul/dtype=fp16/n=4K/mode=cold"},
		{Suite: "elementwise", Name: "add/dtype=fp32/n=256/mode=batch"},
		{Suite: "other", Name: "x"},
	})
	want := []Unit{
		{Name: "mine", Child: Child{Settings: Settings{Config: "/repo/.perfgate.yml", Suites: "mine", SkipPrepare: true}}},
		{Name: "elementwise (small)", Child: Child{Settings: Settings{Suites: "elementwise", Size: "small",
			Filter: `^elementwise/(add/dtype=fp32/n=4K/mode=batch|mul/dtype=fp16/n=4K/mode=cold)$`}}},
		{Name: "elementwise (medium)", Child: Child{Settings: Settings{Suites: "elementwise", Size: "medium",
			Filter: `^elementwise/(add/dtype=fp32/n=256/mode=batch)$`}}},
	}
	if !reflect.DeepEqual(units, want) {
		t.Errorf("units\n%+v\nwant\n%+v", units, want)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[model.Key{Suite: "other", Name: "x"}], "suite other is neither") {
		t.Errorf("skipped %v", skipped)
	}
}
