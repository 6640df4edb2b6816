package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// detectPrefix is how much of a file Detect reads: enough for the first
// keys of a JSON document and the header lines of go test output.
const detectPrefix = 16 << 10

// Detect names the format of the file or directory at path, for commands
// that take another tool's output as it is (perfgate compare old.txt
// new.txt): a directory is criterion's, a .jsonl file sdpa-jsonl's, and
// any other file is told by its first bytes (DetectBytes). A file it
// cannot tell is an input error that asks for the format.
func Detect(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", &model.InputError{File: path, Msg: "cannot read the file", Err: err}
	}
	if st.IsDir() {
		return Criterion, nil
	}
	if strings.EqualFold(filepath.Ext(path), ".jsonl") {
		return SDPAJSONL, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &model.InputError{File: path, Msg: "cannot read the file", Err: err}
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, detectPrefix))
	if err != nil {
		return "", &model.InputError{File: path, Msg: "cannot read the file", Err: err}
	}
	format := DetectBytes(head)
	if format == "" {
		return "", &model.InputError{File: path, Msg: "cannot tell which tool's output this is; name its format (" + strings.Join(Formats, ", ") + ")"}
	}
	return format, nil
}

// DetectBytes names the format whose output begins with head, or "":
// JSON is told by the keys each tool writes first (perfgate's schema,
// Google Benchmark's context, pytest-benchmark's machine_info, nvbench's
// devices), a JSON array is the comprehensive script's and one object a
// line sdpa-jsonl's; other JSON objects are json-samples; text with a
// Benchmark result line or go test's goos:/pkg: header is go test's.
func DetectBytes(head []byte) string {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case len(t) == 0:
		return ""
	case t[0] == '[':
		return Comprehensive
	case t[0] == '{':
		return detectJSON(t)
	}
	for len(t) > 0 {
		line := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			line, t = t[:i], t[i+1:]
		} else {
			t = nil
		}
		for _, p := range [][]byte{[]byte("Benchmark"), []byte("goos:"), []byte("goarch:"), []byte("pkg:")} {
			if bytes.HasPrefix(line, p) {
				return GoTest
			}
		}
	}
	return ""
}

// detectJSON tells the JSON formats apart by their keys.
func detectJSON(t []byte) string {
	has := func(key string) bool { return bytes.Contains(t, []byte(fmt.Sprintf("%q", key))) }
	switch {
	case bytes.Contains(t, []byte(`"perfgate.results/`)):
		return Perfgate
	case has("context") && has("benchmarks"):
		return GBench
	case has("machine_info"):
		return PytestBenchmark
	case has("devices") && has("benchmarks") && (has("states") || has("axes")):
		return NVBench
	}
	// One complete object on the first line, and another line after it:
	// JSON Lines.
	if i := bytes.IndexByte(t, '\n'); i > 0 && bytes.HasSuffix(bytes.TrimSpace(t[:i]), []byte("}")) &&
		bytes.HasPrefix(bytes.TrimSpace(t[i+1:]), []byte("{")) {
		return SDPAJSONL
	}
	return JSONSamples
}
