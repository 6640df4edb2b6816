package runner

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

func TestOrder(t *testing.T) {
	units := []Unit{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	for r, want := range []string{"abc", "bca", "cab", "abc"} {
		var got string
		for _, u := range Order(units, r) {
			got += u.Name
		}
		if got != want {
			t.Errorf("round %d: %s, want %s", r, got, want)
		}
	}
}

func TestRoundRun(t *testing.T) {
	tests := []struct {
		name      string
		job       model.Run
		prefix    string
		r         int
		id, group string
	}{
		{"no group: the job's ID", model.Run{ID: "job7"}, "r", 2, "job7-r2", "job7"},
		{"a group is kept", model.Run{ID: "x", Group: "g"}, "c", 1, "x-c1", "g"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoundRun(tt.job, tt.prefix, tt.r)
			if got.ID != tt.id || got.Group != tt.group {
				t.Errorf("id %q group %q, want %q %q", got.ID, got.Group, tt.id, tt.group)
			}
		})
	}
}

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		out    string
		rounds int
		want   []string
		err    string
	}{
		{"", 1, []string{""}, ""},
		{"r.json", 1, []string{"r.json"}, ""},
		{"r-{round}.json", 3, []string{"r-1.json", "r-2.json", "r-3.json"}, ""},
		{"r-{round}.json", 10, []string{"r-01.json", "r-02.json", "r-03.json", "r-04.json", "r-05.json", "r-06.json", "r-07.json", "r-08.json", "r-09.json", "r-10.json"}, ""},
		{dir, 2, []string{filepath.Join(dir, "round-1.json"), filepath.Join(dir, "round-2.json")}, ""},
		{"new/", 1, []string{"new/round-1.json"}, ""},
		{"r.json", 3, nil, "-out: --rounds 3 writes 3 results files: name a directory (--out r/) or a pattern with {round} (--out r-{round}.json)"},
		{"", 2, nil, "-out: --rounds 2 writes 2 results files, not standard output"},
		{"-", 2, nil, "not standard output"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s×%d", tt.out, tt.rounds), func(t *testing.T) {
			got, err := Paths(tt.out, tt.rounds)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !model.IsInputError(err) {
					t.Errorf("err %v, want an input error %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestChildMeta(t *testing.T) {
	got := childMeta(model.Run{ID: "j", Repo: "o/r", Commit: "c", Branch: "b", Event: "pull_request", Testbed: "tb", PR: 7, Group: "g",
		StartedAt: time.Now(), Env: map[string]string{"gpu": "x"}})
	want := runmeta.Given{ID: "j-part", Repo: "o/r", Commit: "c", Branch: "b", Event: "pull_request", Testbed: "tb", PR: 7}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
