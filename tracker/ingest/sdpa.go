package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// sdpaParams are the numeric fields of an SDPA record that identify its configuration.
var sdpaParams = []string{"B", "H", "S", "d"}

// sdpaSummaries are the latency fields tried, in order, when a record has no
// raw samples; the suffix gives the unit.
var sdpaSummaries = []string{"median", "p50", "mean", "latency", "avg"}

// ParseSDPA parses the SDPA harness's JSONL: one JSON object per line, one
// configuration per object, such as
//
//	{"B": 4, "H": 16, "S": 4096, "d": 128, "precision": "bf16", "backend": "flash",
//	 "median_ms": 0.81, "mean_ms": 0.83, "std_ms": 0.02, "tflops": 171.2}
//
// B, H, S, d and every string or boolean field are parameters. If the record
// has an array of numbers named samples_<unit>, latencies_<unit> or
// times_<unit> (unit ms, us, ns or s), those are the samples; otherwise the
// first of median_, p50_, mean_, latency_, avg_<unit> is kept as one summary,
// flagged SummaryOnly (repeated lines of one configuration pool, one summary
// each). Every other numeric field is a metric. Blank lines are skipped.
func ParseSDPA(name string, data []byte, o Options) ([]model.Benchmark, error) {
	g := newGrouper(o.suite(SDPAJSONL))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, bad(name, lineAt(n), "not a JSON object: %v", err)
		}
		if err := sdpaRecord(name, lineAt(n), r, g); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, bad(name, "", "reading: %v", err)
	}
	return g.finish(), nil
}

func sdpaRecord(file, where string, r map[string]any, g *grouper) error {
	params := map[string]string{}
	metrics := map[string]float64{}
	var raw []any
	var rawKey string
	for _, k := range model.SortedKeys(r) { // in order: the first bad field is always the same one
		v := r[k]
		if slices.Contains(sdpaParams, k) {
			x, ok := v.(float64)
			if !ok || x < 1 || x != math.Trunc(x) {
				return bad(file, where, "%s: %s is not a positive whole number", k, jsonText(v))
			}
			params[k] = strconv.FormatFloat(x, 'f', -1, 64)
			continue
		}
		switch x := v.(type) {
		case string:
			params[k] = x
		case bool:
			params[k] = strconv.FormatBool(x)
		case float64:
			metrics[k] = x
		case nil:
			// null: not measured.
		case []any:
			p, u := splitUnit(k)
			if u == "" || !slices.Contains([]string{"samples", "latencies", "times"}, p) {
				return bad(file, where, "%s: an array, but only samples_<unit>, latencies_<unit> and times_<unit> (unit ns, us, ms or s) may be arrays", k)
			}
			if rawKey == "" || k < rawKey {
				raw, rawKey = x, k
			}
		default:
			return bad(file, where, "%s: %s is not a parameter, sample or metric (docs/config.md, sdpa-jsonl)", k, jsonKind(v))
		}
	}
	for _, p := range sdpaParams {
		if _, ok := params[p]; !ok {
			return bad(file, where, "record has no %s (want B, H, S and d)", p)
		}
	}
	name := "sdpa" + paramSuffix(params, sdpaParams)
	if rawKey != "" {
		return sdpaRaw(file, where, name, params, rawKey, raw, metrics, g)
	}
	for _, s := range sdpaSummaries {
		for _, u := range []string{"ms", "us", "ns", "s"} {
			key := s + "_" + u
			if v, ok := metrics[key]; ok {
				if err := checkSample(file, where+": "+key, u, v); err != nil {
					return err
				}
				delete(metrics, key)
				if err := g.add(name, params, u, []float64{v}, true, metrics); err != nil {
					return bad(file, where, "%v", err)
				}
				return nil
			}
		}
	}
	return bad(file, where, "record has no latency: want samples_ms (raw) or median_ms, p50_ms, mean_ms, latency_ms")
}

func sdpaRaw(file, where, name string, params map[string]string, key string, raw []any, metrics map[string]float64, g *grouper) error {
	_, unit := splitUnit(key)
	samples := make([]float64, len(raw))
	for i, v := range raw {
		f, ok := v.(float64)
		if !ok {
			return bad(file, where, "%s[%d] is not a number", key, i)
		}
		if err := checkSample(file, where+": "+key, unit, f); err != nil {
			return err
		}
		samples[i] = f
	}
	if len(samples) == 0 {
		return bad(file, where, "%s is empty", key)
	}
	if err := g.add(name, params, unit, samples, false, metrics); err != nil {
		return bad(file, where, "%v", err)
	}
	return nil
}

// splitUnit splits "median_ms" into "median" and "ms"; the unit is "" when
// the suffix is not a time unit.
func splitUnit(k string) (string, string) {
	i := strings.LastIndexByte(k, '_')
	if i < 0 || !model.IsTimeUnit(k[i+1:]) {
		return k, ""
	}
	return k[:i], k[i+1:]
}

// jsonText renders a decoded JSON value for a message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 40 {
		return jsonKind(v)
	}
	return string(b)
}
