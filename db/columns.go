package db

import (
	"cmp"
	"context"

	"github.com/perfgate/perfgate/tracker/model"
)

// A benchKey identifies a benchmarks row: a series is one suite and name in
// one unit and direction.
type benchKey struct{ suite, name, unit, better string }

func (a benchKey) compare(b benchKey) int {
	return cmp.Or(cmp.Compare(a.suite, b.suite), cmp.Compare(a.name, b.name),
		cmp.Compare(a.unit, b.unit), cmp.Compare(a.better, b.better))
}

// A benchRow is a stored benchmarks row: its id and its params.
type benchRow struct {
	id     int64
	params map[string]string
}

// benchColumns transposes keys into the four text arrays unnest takes.
func benchColumns(keys []benchKey) [4][]string {
	var c [4][]string
	for i := range c {
		c[i] = make([]string, 0, len(keys))
	}
	for _, k := range keys {
		c[0], c[1], c[2], c[3] = append(c[0], k.suite), append(c[1], k.name), append(c[2], k.unit), append(c[3], k.better)
	}
	return c
}

// lookupBenchmarks returns the stored row of each key, in order, and
// whether it was found.
func (s *Store) lookupBenchmarks(ctx context.Context, keys []benchKey) ([]benchRow, []bool, error) {
	cols := benchColumns(keys)
	rows, err := s.pool.Query(ctx, `
		select k.i, b.id, b.params
		from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality as k(s, n, u, b, i)
		join benchmarks b on b.suite = k.s and b.name = k.n and b.unit = k.u and b.better = k.b`,
		cols[0], cols[1], cols[2], cols[3])
	if err != nil {
		return nil, nil, infra("look up benchmarks", err)
	}
	defer rows.Close()
	out := make([]benchRow, len(keys))
	found := make([]bool, len(keys))
	for rows.Next() {
		var i int
		var r benchRow
		if err := rows.Scan(&i, &r.id, &r.params); err != nil {
			return nil, nil, infra("look up benchmarks", err)
		}
		out[i-1], found[i-1] = r, true
	}
	if err := rows.Err(); err != nil {
		return nil, nil, infra("look up benchmarks", err)
	}
	return out, found, nil
}

// A summarizer gives the count, median and coefficient of variation of a
// benchmark's samples (model.MedianCV, as the embedded store and
// tracker/stats compute them; nil median and CV when there are none) for
// one benchmark at a time: one sort buffer for every benchmark of a run,
// and the figures of the last one in place of two allocations each.
type summarizer struct {
	buf        []float64
	median, cv float64
}

func (z *summarizer) summarize(x []float64) (n int, median, cv *float64) {
	if len(x) == 0 {
		return 0, nil, nil
	}
	z.median, z.cv, z.buf = model.MedianCVBuf(x, z.buf)
	return len(x), &z.median, &z.cv
}

func nullInt(v int) *int {
	if v == 0 {
		return nil
	}
	return &v
}

func nullString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

// nullMap stores an empty map as NULL.
func nullMap[M ~map[string]V, V any](m M) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// envJSON stores a missing env as an empty object.
func envJSON(env map[string]string) map[string]string {
	if env == nil {
		return map[string]string{}
	}
	return env
}
