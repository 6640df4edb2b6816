package filestore

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// The store's own files (index, catalog, series) are lines of tab-separated
// fields: strings Go-quoted (strconv.Quote, so no field holds a tab or a
// newline), numbers in decimal. Decoding a line is a split and an unquote
// per field, several times faster than JSON: a query decodes the whole
// index, 10,000 lines at 10,000 runs.

// errBadLine reports a line of a store file that does not decode; the
// caller rebuilds what it can from the run files.
var errBadLine = errors.New("malformed line")

// fields splits a line into its fields.
func fields(line string) []string { return strings.Split(line, "\t") }

func appendQuoted(b []byte, s string) []byte { return strconv.AppendQuote(b, s) }

func unquote(f string) (string, error) {
	s, err := strconv.Unquote(f)
	if err != nil {
		return "", errBadLine
	}
	return s, nil
}

// An entry describes one stored run file: its name, size and modification
// time (to notice a file changed behind the store's back), its sample count
// (a run without samples is never a baseline) and whether its benchmarks'
// trend points are in the series files.
type entry struct {
	File    string
	Size    int64
	ModTime int64
	Samples int
	Series  bool
	Run     model.Run
}

// appendEntry encodes e as one index line (with its newline).
func appendEntry(b []byte, e *entry) []byte {
	b = appendQuoted(b, e.File)
	b = append(b, '\t')
	b = strconv.AppendInt(b, e.Size, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, e.ModTime, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(e.Samples), 10)
	b = append(b, '\t')
	b = strconv.AppendBool(b, e.Series)
	r := &e.Run
	for _, s := range []string{r.ID, r.Repo, r.Commit, r.Branch} {
		b = appendQuoted(append(b, '\t'), s)
	}
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(r.PR), 10)
	for _, s := range []string{r.Event, r.Testbed, r.StartedAt.Format(time.RFC3339Nano), r.Group} {
		b = appendQuoted(append(b, '\t'), s)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Env)) {
		b = appendQuoted(append(b, '\t'), k)
		b = appendQuoted(append(b, '\t'), r.Env[k])
	}
	return append(b, '\n')
}

// entryFields is the number of fields of an index line before the env pairs.
const entryFields = 14

// parseEntry decodes one index line (without its newline).
func parseEntry(line string) (entry, error) {
	f := fields(line)
	if len(f) < entryFields || (len(f)-entryFields)%2 != 0 {
		return entry{}, errBadLine
	}
	var e entry
	var err error
	str := func(i int) string {
		s, uerr := unquote(f[i])
		err = errors.Join(err, uerr)
		return s
	}
	num := func(i int) int64 {
		n, perr := strconv.ParseInt(f[i], 10, 64)
		err = errors.Join(err, perr)
		return n
	}
	e.File, e.Size, e.ModTime, e.Samples = str(0), num(1), num(2), int(num(3))
	e.Series = f[4] == "true"
	r := &e.Run
	r.ID, r.Repo, r.Commit, r.Branch, r.PR = str(5), str(6), str(7), str(8), int(num(9))
	r.Event, r.Testbed, r.Group = str(10), str(11), str(13)
	t, terr := time.Parse(time.RFC3339Nano, str(12))
	r.StartedAt, err = t, errors.Join(err, terr)
	if len(f) > entryFields {
		r.Env = make(map[string]string, (len(f)-entryFields)/2)
		for i := entryFields; i < len(f); i += 2 {
			r.Env[str(i)] = str(i + 1)
		}
	}
	if err != nil {
		return entry{}, errBadLine
	}
	return e, nil
}

// A point is one benchmark's summary in one run: a line of its series file.
type point struct {
	RunID  string
	Unit   string
	Better model.Better
	N      int
	Median float64
	CV     float64
}

// appendPoint encodes p as one series line (with its newline). Floats are
// written in the shortest form that parses back to the same bits.
func appendPoint(b []byte, p *point) []byte {
	b = appendQuoted(b, p.RunID)
	b = appendQuoted(append(b, '\t'), p.Unit)
	b = appendQuoted(append(b, '\t'), string(p.Better))
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(p.N), 10)
	b = append(b, '\t')
	b = strconv.AppendFloat(b, p.Median, 'g', -1, 64)
	b = append(b, '\t')
	b = strconv.AppendFloat(b, p.CV, 'g', -1, 64)
	return append(b, '\n')
}

// parsePoint decodes one series line (without its newline).
func parsePoint(line string) (point, error) {
	f := fields(line)
	if len(f) != 6 {
		return point{}, errBadLine
	}
	var p point
	var err, e error
	p.RunID, err = unquote(f[0])
	p.Unit, e = unquote(f[1])
	err = errors.Join(err, e)
	var better string
	better, e = unquote(f[2])
	p.Better = model.Better(better)
	err = errors.Join(err, e)
	p.N, e = strconv.Atoi(f[3])
	err = errors.Join(err, e)
	p.Median, e = strconv.ParseFloat(f[4], 64)
	err = errors.Join(err, e)
	p.CV, e = strconv.ParseFloat(f[5], 64)
	if err = errors.Join(err, e); err != nil || math.IsNaN(p.Median) {
		return point{}, errBadLine
	}
	return p, nil
}
