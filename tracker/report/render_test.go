package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	c := mixed(t)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Render(&buf, c, nil, format); err != nil || buf.Len() == 0 {
				t.Errorf("Render(%s) = %v, %d bytes; want the report", format, err, buf.Len())
			}
		})
	}
	var buf bytes.Buffer
	if err := Render(&buf, c, nil, "html"); err == nil || !strings.Contains(err.Error(), "text, markdown, json, csv, latex") {
		t.Errorf("Render(html) = %v; want an error listing the formats", err)
	}
}
