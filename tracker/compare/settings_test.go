package compare

import (
	"errors"
	"reflect"
	"testing"
)

func TestSettingsOptions(t *testing.T) {
	o, err := DefaultSettings().Options()
	if err != nil || !reflect.DeepEqual(o, DefaultOptions()) {
		t.Fatalf("DefaultSettings().Options() = %+v, %v; want DefaultOptions() %+v", o, err, DefaultOptions())
	}
	s := DefaultSettings()
	s.Threshold, s.RunSpread, s.History = "5%", 20, 7
	if o, err = s.Options(); err != nil || o.Threshold != 0.05 || o.RunSpreadPrior != 0.2 || o.HistoryJobs != 7 {
		t.Errorf("threshold 5%%, run-spread 20, history 7: got %+v, %v", o, err)
	}
	tests := []struct {
		name    string
		edit    func(*Settings)
		setting string
	}{
		{"threshold", func(s *Settings) { s.Threshold = "ten" }, "threshold"},
		{"alpha 1", func(s *Settings) { s.Alpha = 1 }, "alpha"},
		{"min-samples 1", func(s *Settings) { s.MinSamples = 1 }, "min-samples"},
		{"history 0", func(s *Settings) { s.History = 0 }, "history"},
		{"run-spread 101", func(s *Settings) { s.RunSpread = 101 }, "run-spread"},
		{"correction", func(s *Settings) { s.Correction = "bonferoni" }, "correction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSettings()
			tt.edit(&s)
			_, err := s.Options()
			var se *SettingError
			if !errors.As(err, &se) || se.Setting != tt.setting {
				t.Errorf("error %v; want a *SettingError naming %s", err, tt.setting)
			}
		})
	}
}
