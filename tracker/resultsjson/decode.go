package resultsjson

import (
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// decodeFast decodes and validates a results-v1 document in one pass over
// data, straight into the structs. It reports ok only for a document the
// general loader (parseTree) accepts, decoded to the same value; on anything
// else — invalid, or merely unusual, such as escaped keys or a repeated key —
// it gives up and Parse runs the general loader, which names the problem.
// That keeps one definition of every error message and JSON path, and the
// common case free of per-value paths, generic trees and a second decode.
func decodeFast(data []byte) (*model.Results, bool) {
	return (&scanner{data: data}).results()
}

// decodeStream is decodeFast for a document read from r through a window
// of window bytes (newStreamScanner), so that the whole file is never held. err is r's
// error, if reading failed.
func decodeStream(r io.Reader, window int) (*model.Results, bool, error) {
	res := &model.Results{}
	ok, err := streamDocument(r, window, false, res, func(b *model.Benchmark, _ span) bool {
		res.Benchmarks = append(res.Benchmarks, *b)
		return true
	})
	if !ok || err != nil {
		return nil, false, err
	}
	return res, true, nil
}

// streamDocument reads and checks the document in r through a window of
// window bytes (newStreamScanner) into res, calling each with every
// benchmark instead of keeping it; with reuse, a benchmark and its samples
// are valid only until each returns. It reports whether the fast path
// accepted the document, and r's error if reading failed.
func streamDocument(r io.Reader, window int, reuse bool, res *model.Results, each func(b *model.Benchmark, at span) bool) (bool, error) {
	s := newStreamScanner(r, window)
	s.reuse = reuse
	ok := s.document(res, each)
	if s.err != nil && s.err != io.EOF && s.err != errNotUTF8 {
		return false, s.err
	}
	return ok, nil
}

// results reads and checks a whole document.
func (s *scanner) results() (*model.Results, bool) {
	r := &model.Results{}
	ok := s.document(r, func(b *model.Benchmark, _ span) bool {
		r.Benchmarks = append(r.Benchmarks, *b)
		return true
	})
	if !ok {
		return nil, false
	}
	return r, true
}

// A span is where a benchmark's object lies in the input: [start, end).
type span struct{ start, end int64 }

// document reads and checks a whole document into r, except that each
// benchmark is handed to bench (with where it lies) instead of kept; r's
// Benchmarks is left empty.
func (s *scanner) document(r *model.Results, bench func(b *model.Benchmark, at span) bool) bool {
	var seen uint8
	const schema, run, benchmarks = 1, 2, 4
	ok := s.object(func(key []byte) bool {
		var bit uint8
		ok := false
		switch string(key) {
		case "schema":
			bit = schema
			r.Schema, ok = s.str()
			ok = ok && r.Schema == model.Schema
		case "run":
			bit, ok = run, s.run(&r.Run)
		case "benchmarks":
			r.Benchmarks = []model.Benchmark{}
			bit, ok = benchmarks, s.benchmarks(bench)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return ok && seen == schema|run|benchmarks && s.atEnd()
}

// run decodes and checks the run block (checkRun's rules).
func (s *scanner) run(r *model.Run) bool {
	var seen uint16
	const (
		id = 1 << iota
		repo
		commit
		branch
		pr
		event
		testbed
		startedAt
		group
		env
		required = id | repo | commit | branch | event | testbed | startedAt
	)
	ok := s.object(func(key []byte) bool {
		var bit uint16
		ok := false
		switch string(key) {
		case "id":
			bit = id
			r.ID, ok = s.str()
			ok = ok && r.ID != ""
		case "repo":
			bit = repo
			r.Repo, ok = s.str()
			ok = ok && model.RepoPattern.MatchString(r.Repo)
		case "commit":
			bit = commit
			r.Commit, ok = s.str()
			ok = ok && model.CommitPattern.MatchString(r.Commit)
		case "branch":
			bit = branch
			r.Branch, ok = s.str()
			ok = ok && r.Branch != ""
		case "pr":
			bit = pr
			r.PR, ok = s.positiveInt()
		case "event":
			bit = event
			r.Event, ok = s.str()
			ok = ok && slices.Contains(model.Events, r.Event)
		case "testbed":
			bit = testbed
			r.Testbed, ok = s.str()
			ok = ok && r.Testbed != ""
		case "started_at":
			bit = startedAt
			r.StartedAt, ok = s.time()
		case "group":
			bit = group
			r.Group, ok = s.str()
		case "env":
			bit = env
			r.Env, ok = s.stringMap()
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return ok && seen&required == required
}

// positiveInt reads a run's pr: a plain integer ≥ 1 that fits an int (the
// general loader also accepts 1.0 or 1e2, then fails to decode them).
func (s *scanner) positiveInt() (int, bool) {
	tok, ok := s.rawNumber()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(tok), 10, 0)
	return int(n), err == nil && n >= 1 && n < 1<<53
}

// time reads started_at: the general loader checks it with time.Parse, then
// decodes it with Time.UnmarshalJSON; both must accept it. A time written
// with escapes is left to the general loader.
func (s *scanner) time() (time.Time, bool) {
	v, ok := s.str()
	if !ok || s.esc {
		return time.Time{}, false
	}
	if _, err := time.Parse(time.RFC3339Nano, v); err != nil {
		return time.Time{}, false
	}
	var t time.Time
	return t, t.UnmarshalJSON([]byte(`"`+v+`"`)) == nil
}

// benchmarks decodes the benchmarks array, each checked as checkBenchmark
// does, rejects repeated keys as checkBenchmarks does, and hands each to
// bench, which must copy what it keeps of it.
func (s *scanner) benchmarks(bench func(b *model.Benchmark, at span) bool) bool {
	seen := map[model.Key]struct{}{}
	var b model.Benchmark
	return s.array(func() bool {
		s.peek()
		start := s.off + int64(s.pos)
		if s.reuse {
			s.slab = s.slab[:0]
		}
		b = model.Benchmark{}
		if !s.benchmark(&b) {
			return false
		}
		if _, dup := seen[b.Key()]; dup {
			return false
		}
		seen[b.Key()] = struct{}{}
		return bench(&b, span{start, s.off + int64(s.pos)})
	})
}

// benchmark decodes one benchmark object.
func (s *scanner) benchmark(b *model.Benchmark) bool {
	var seen uint16
	const (
		suite = 1 << iota
		name
		params
		unit
		better
		samples
		metrics
		info
		summaryOnly
		errorMsg
		required = suite | name | unit | better | samples
	)
	ok := s.object(func(key []byte) bool {
		var bit uint16
		ok := false
		switch string(key) {
		case "suite":
			bit = suite
			b.Suite, ok = s.str()
			ok = ok && b.Suite != ""
		case "name":
			bit = name
			b.Name, ok = s.str()
			ok = ok && b.Name != ""
		case "params":
			bit = params
			b.Params, ok = s.stringMap()
		case "unit":
			bit = unit
			b.Unit, ok = s.str()
			ok = ok && b.Unit != ""
		case "better":
			bit = better
			var v string
			v, ok = s.str()
			b.Better = model.Better(v)
			ok = ok && (b.Better == model.Lower || b.Better == model.Higher)
		case "samples":
			bit = samples
			b.Samples, ok = s.samples()
		case "metrics":
			bit = metrics
			b.Metrics, ok = s.numberMap()
		case "info":
			bit = info
			b.Info, ok = s.stringMap()
		case "summary_only":
			bit = summaryOnly
			b.SummaryOnly, ok = s.boolean()
		case "error":
			bit = errorMsg
			b.Error, ok = s.str()
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	if !ok || seen&required != required || (len(b.Samples) == 0 && b.Error == "") {
		return false
	}
	if model.IsTimeUnit(b.Unit) {
		for _, v := range b.Samples {
			if v < 0 || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
