package ingest

import (
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A Side is the files of one side of a comparison (perfgate compare OLD
// NEW) and the format of each: perfgate results files, or another tool's
// output as it wrote it.
type Side struct {
	Files, Formats []string
}

// NewSide names the format of each file: format for all of them, or, when
// format is "", the one each file's content tells (Detect).
func NewSide(files []string, format string) (Side, error) {
	s := Side{Files: files, Formats: make([]string, len(files))}
	for i, f := range files {
		s.Formats[i] = format
		if format == "" {
			var err error
			if s.Formats[i], err = Detect(f); err != nil {
				return Side{}, err
			}
		}
	}
	return s, nil
}

// NewSides is NewSide for the two sides of a comparison.
func NewSides(base, cand []string, format string) (Side, Side, error) {
	b, err := NewSide(base, format)
	if err != nil {
		return Side{}, Side{}, err
	}
	c, err := NewSide(cand, format)
	return b, c, err
}

// Results returns the side's perfgate results files.
func (s Side) Results() []string {
	var out []string
	for i, f := range s.Files {
		if s.Formats[i] == Perfgate {
			out = append(out, f)
		}
	}
	return out
}

// Load loads the side's files, each run once (resultsjson.DistinctRuns): results
// files as they are (resultsjson.LoadAll), another tool's output (ParseFiles)
// as one local run whose ID is its file name.
func (s Side) Load(o Options) ([]*model.Results, error) {
	runs := make([]*model.Results, len(s.Files))
	var at []int // where the results files go
	for i, f := range s.Files {
		if s.Formats[i] == Perfgate {
			at = append(at, i)
			continue
		}
		bs, err := ParseFiles(s.Formats[i], []string{f}, o)
		if err != nil {
			return nil, err
		}
		runs[i] = &model.Results{Schema: model.Schema, Run: model.Run{ID: f, Repo: "local/unknown", Event: model.EventLocal}, Benchmarks: bs}
	}
	loaded, err := resultsjson.LoadAll(s.Results())
	if err != nil {
		return nil, err
	}
	for j, r := range loaded {
		runs[at[j]] = r
	}
	return runs, resultsjson.DistinctRuns(s.Files, runs)
}

// LoadSides loads both sides at once: each is a file or more to parse, and
// both are needed. A baseline error is reported before a candidate error,
// as if they were loaded in turn.
func LoadSides(base, cand Side, o Options) (baseRuns, candRuns []*model.Results, err error) {
	var candErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		candRuns, candErr = cand.Load(o)
	}()
	baseRuns, err = base.Load(o)
	<-done
	if err == nil {
		err = candErr
	}
	if err != nil {
		return nil, nil, err
	}
	return baseRuns, candRuns, nil
}
