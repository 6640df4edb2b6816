package report

import (
	"maps"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// envComparison compares one benchmark between two baseline runs and one
// candidate run, each with envMain changed by its map.
func envComparison(t *testing.T, b1, b2, cand map[string]string) *compare.Comparison {
	t.Helper()
	with := func(m map[string]string) map[string]string {
		env := maps.Clone(envMain)
		maps.Copy(env, m)
		return env
	}
	x := seq(1000, 10, 10)
	base := []*model.Results{
		run("b1", "a", "main", 19, with(b1), bm("s", "x", "ns", model.Lower, x)),
		run("b2", "b", "main", 20, with(b2), bm("s", "x", "ns", model.Lower, x)),
	}
	c, err := compare.Compare(base, []*model.Results{run("c1", "d", "pr", 21, with(cand), bm("s", "x", "ns", model.Lower, x))}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// envSummary returns the <summary> line of the environment section.
func envSummary(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "<details><summary>Environment") {
			return line
		}
	}
	return ""
}

// TestEnvironmentDifferences pins which environment differences the report
// warns about: the well-known keys always, other keys only where the
// baseline runs agree among themselves; and that the <summary>, raw HTML
// where GitHub parses no Markdown, carries no backslash escapes.
func TestEnvironmentDifferences(t *testing.T) {
	tests := []struct {
		name         string
		b1, b2, cand map[string]string
		warn         string // in the top warning line; "" = no warning line
		summary      string // in the <summary> line
		row          string // a row of the environment table
	}{
		{"reading that varies between baseline runs", map[string]string{"temperature_c": "45"}, map[string]string{"temperature_c": "47"}, map[string]string{"temperature_c": "46"},
			"", "Environment: differs only in readings that vary between baseline runs (temperature_c)", "| **temperature\\_c** | **45 / 47** | **46** |"},
		{"a value one baseline run had", map[string]string{"copy_ceiling_gbps": "3020.2"}, map[string]string{"copy_ceiling_gbps": "3019.8"}, map[string]string{"copy_ceiling_gbps": "3019.8"},
			"", "Environment: identical", "| copy\\_ceiling\\_gbps | 3020.2 / 3019.8 | 3019.8 |"},
		{"reading constant in the baseline", map[string]string{"temperature_c": "45"}, map[string]string{"temperature_c": "45"}, map[string]string{"temperature_c": "80"},
			"differ in temperature\\_c", "Environment: ⚠️ differs in temperature_c</summary>", "| ⚠️ **temperature\\_c** | **45** | **80** |"},
		{"driver, even where the baseline runs differ", map[string]string{model.EnvDriver: "580.1"}, map[string]string{model.EnvDriver: "580.2"}, map[string]string{model.EnvDriver: "580.3"},
			"differ in driver", "Environment: ⚠️ differs in driver</summary>", "| ⚠️ **driver** | **580.1 / 580.2** | **580.3** |"},
		{"user text in the summary", map[string]string{"a_b<i>@x#1": "1"}, map[string]string{"a_b<i>@x#1": "1"}, map[string]string{"a_b<i>@x#1": "2"},
			"differ in a\\_b&lt;i&gt;@\u200dx#\u200d1", "Environment: ⚠️ differs in a_b&lt;i&gt;@\u200dx#\u200d1</summary>", "| ⚠️ **a\\_b&lt;i&gt;@\u200dx#\u200d1** | **1** | **2** |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Markdown(envComparison(t, tt.b1, tt.b2, tt.cand), Options{})
			line := ""
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "⚠️ The baseline and candidate environments") {
					line = l
				}
			}
			if tt.warn == "" && line != "" || !strings.Contains(line, tt.warn) {
				t.Errorf("warning line %q, want one containing %q", line, tt.warn)
			}
			if s := envSummary(out); !strings.Contains(s, tt.summary) || strings.Contains(s, `\`) {
				t.Errorf("summary %q, want it to contain %q and no backslash", s, tt.summary)
			}
			if !strings.Contains(out, "\n"+tt.row+"\n") {
				t.Errorf("no row %q in:\n%s", tt.row, out)
			}
		})
	}
}
