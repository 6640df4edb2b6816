package db

import "testing"

func TestMigrateResultString(t *testing.T) {
	for _, tc := range []struct {
		r    MigrateResult
		want string
	}{
		{MigrateResult{From: 7, To: 7}, "schema already at version 7"},
		{MigrateResult{From: 0, To: 7}, "schema migrated from version 0 to 7"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}
