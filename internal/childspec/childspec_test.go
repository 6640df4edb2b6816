package childspec

import (
	"strings"
	"testing"
	"time"
)

type inner struct {
	Name string
	When time.Time
}

type Settings struct {
	Size    string
	Fast    bool
	MaxTime time.Duration
	List    []string
	Local   string `json:"-"`
}

type spec struct {
	Settings
	Out  string `json:"out"`
	Meta inner
}

// TestRoundTrip: the fields given travel, the zero ones leave the child's
// defaults alone (as a flag not given), json:"-" fields never travel.
func TestRoundTrip(t *testing.T) {
	when := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	in := spec{Settings: Settings{Fast: true, MaxTime: 10 * time.Millisecond, List: []string{"a", "b"}, Local: "parent's"},
		Out: "r.json", Meta: inner{When: when}}
	data, err := Encode(1, in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":1,"spec":{"Fast":true,"List":["a","b"],"MaxTime":10000000,"Meta":{"When":"2025-03-01T12:00:00Z"},"out":"r.json"}}`; string(data) != want {
		t.Errorf("encoded\n%s\nwant\n%s", data, want)
	}
	got := spec{Settings: Settings{Size: "medium", Local: "child's"}, Meta: inner{Name: "default"}}
	if err := Decode(data, 1, &got); err != nil {
		t.Fatal(err)
	}
	want := in
	want.Size, want.Local, want.Meta.Name = "medium", "child's", "default"
	if got.Size != want.Size || got.Fast != want.Fast || got.MaxTime != want.MaxTime || strings.Join(got.List, ",") != "a,b" ||
		got.Local != want.Local || got.Out != want.Out || got.Meta != want.Meta {
		t.Errorf("decoded %+v, want %+v", got, want)
	}
}

func TestDecodeRefuses(t *testing.T) {
	for _, tt := range []struct{ name, data, err string }{
		{"another version", `{"version":2,"spec":{}}`, "version 2, this perfgate reads version 1"},
		{"an unknown field", `{"version":1,"spec":{"Colour":"red"}}`, `unknown field "Colour"`},
		{"not JSON", `--fast`, "child spec: invalid character"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s spec
			if err := Decode([]byte(tt.data), 1, &s); err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Decode(%s): %v, want an error saying %q", tt.data, err, tt.err)
			}
		})
	}
}

func TestEncodeRefusesANonStruct(t *testing.T) {
	if _, err := Encode(1, 3); err == nil {
		t.Error("Encode(1, 3): no error")
	}
}
