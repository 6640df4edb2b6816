package compare

import (
	"reflect"
	"testing"
)

func TestEnvSettings(t *testing.T) {
	def := DefaultSettings()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want func(*Settings)
		bad  map[string]string // setting -> message
	}{
		{name: "none set", want: func(*Settings) {}},
		{name: "every variable", env: map[string]string{"PERFGATE_THRESHOLD": "5%", "PERFGATE_ALPHA": "0.01", "PERFGATE_CORRECTION": "none",
			"PERFGATE_MIN_SAMPLES": " 7 ", "PERFGATE_HISTORY": "30", "PERFGATE_RUN_SPREAD": "2.5"},
			want: func(s *Settings) {
				s.Threshold, s.Alpha, s.Correction, s.MinSamples, s.History, s.RunSpread = "5%", 0.01, "none", 7, 30, 2.5
			}},
		{name: "not numbers keep the defaults", env: map[string]string{"PERFGATE_ALPHA": "low", "PERFGATE_MIN_SAMPLES": "2.5", "PERFGATE_HISTORY": "many", "PERFGATE_RUN_SPREAD": "x"},
			want: func(*Settings) {},
			bad: map[string]string{"alpha": `"low" is not a number`, "min-samples": `"2.5" is not an integer`,
				"history": `"many" is not an integer`, "run-spread": `"x" is not a number`}},
		{name: "bad text is Options' to check", env: map[string]string{"PERFGATE_THRESHOLD": "lots", "PERFGATE_ALPHA": "7"},
			want: func(s *Settings) { s.Threshold, s.Alpha = "lots", 7 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, bad := EnvSettings(func(k string) string { return tc.env[k] })
			want := def
			tc.want(&want)
			if got != want {
				t.Errorf("settings %+v, want %+v", got, want)
			}
			msgs := map[string]string{}
			for name, se := range bad {
				if se.Setting != name {
					t.Errorf("bad[%s] names %s", name, se.Setting)
				}
				msgs[name] = se.Msg
			}
			if len(msgs) == 0 && len(tc.bad) == 0 {
				return
			}
			if !reflect.DeepEqual(msgs, tc.bad) {
				t.Errorf("bad %v, want %v", msgs, tc.bad)
			}
		})
	}
}
