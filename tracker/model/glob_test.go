package model

import "testing"

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"", "add/fp32/n=1024", true},
		{"add", "add/fp32/n=1024", true},
		{"add/*", "add/fp32/n=1024", true},
		{"add/*/*", "add/fp32/n=1024", true},
		{"add/fp32/n=1024", "add/fp32/n=1024", true},
		{"*", "add/fp32/n=1024", true},
		{"add/*/n=4096", "add/fp32/n=1024", false},
		{"gemm/bf16", "gemm/bf16x/m=1", false},
		{"add", "addmul/fp32", false},
		{"add/fp32/n=1024/mode=cold", "add/fp32/n=1024", false},
		{"a*d/fp?2", "add/fp32/n=1", true},
		{"[", "add", false},
	} {
		if got := MatchGlob(tc.glob, tc.name); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.glob, tc.name, got, tc.want)
		}
	}
	if CheckGlob("[") == nil || CheckGlob("add/*") != nil {
		t.Error("CheckGlob does not tell bad from good patterns")
	}
}
