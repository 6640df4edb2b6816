package resultsjson

import "github.com/perfgate/perfgate/tracker/model"

import "os"

// LoadSummarized reads and checks the results file at path as Load does,
// with the same errors, and returns its run with the summaries of its
// benchmarks (s.Add), taken as each is decoded: one benchmark's samples are held at a
// time, not the run's. A file that the fast loader does not accept
// plainly (or that is not a regular file) is loaded whole, then reduced.
func LoadSummarized(s *model.Summarizer, path string) (*model.Results, error) {
	r := &model.Results{}
	whole, err := streamOrParse(path, func(f *os.File, _ os.FileInfo) (bool, error) {
		return streamDocument(f, windowSize, true, r, func(b *model.Benchmark, _ span) bool {
			s.Add(r, b)
			return true
		})
	})
	switch {
	case err != nil:
		return nil, err
	case whole != nil:
		s.Reduce(whole)
		return whole, nil
	}
	r.Benchmarks, r.SummaryKeys = nil, s.Keys()
	return r, nil
}
