package db

import (
	"cmp"
	"context"
	"slices"

	"github.com/jackc/pgx/v5"
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

// benchColumns transposes keys into the four text arrays unnest takes,
// reusing c's arrays.
func benchColumns(c *[4][]string, keys []benchKey) {
	for i := range c {
		c[i] = slices.Grow(c[i][:0], len(keys))
	}
	for _, k := range keys {
		c[0], c[1], c[2], c[3] = append(c[0], k.suite), append(c[1], k.name), append(c[2], k.unit), append(c[3], k.better)
	}
}

// lookupBatch is how many keys one lookup query sends: the encoded arrays,
// the Bind message and the rows read back of 10,000 keys at once made
// record's heap peak (docs/speed.md, "Postgres's own pages").
const lookupBatch = 1000

// lookupBenchmarks returns the stored row of each key, in order, and
// whether it was found. It asks for lookupBatch keys at a time.
func (s *Store) lookupBenchmarks(ctx context.Context, keys []benchKey) ([]benchRow, []bool, error) {
	out := make([]benchRow, len(keys))
	found := make([]bool, len(keys))
	var cols [4][]string
	for off := 0; off < len(keys); off += lookupBatch {
		batch := keys[off:min(off+lookupBatch, len(keys))]
		benchColumns(&cols, batch)
		if err := s.lookupBatch(ctx, cols, out[off:], found[off:]); err != nil {
			return nil, nil, infra("look up benchmarks", err)
		}
	}
	return out, found, nil
}

// lookupBatch looks up the keys in cols, setting out[i] and found[i] for
// the i-th key that is stored.
func (s *Store) lookupBatch(ctx context.Context, cols [4][]string, out []benchRow, found []bool) error {
	// One probe of the unique index per key (offset 0 keeps the subquery
	// a subquery): a plain join of a batch hashes the whole table when
	// the planner has no statistics for it yet, as right after a run's
	// new benchmarks were inserted, once per batch.
	rows, err := s.pool.Query(ctx, `
		select k.i, b.id, b.params
		from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality as k(s, n, u, b, i)
		cross join lateral (select id, params from benchmarks b
			where b.suite = k.s and b.name = k.n and b.unit = k.u and b.better = k.b offset 0) b`,
		cols[0], cols[1], cols[2], cols[3])
	if err != nil {
		return err
	}
	var i int
	var r benchRow
	_, err = pgx.ForEachRow(rows, []any{&i, &r.id, &r.params}, func() error {
		out[i-1], found[i-1] = r, true
		r.params = nil // Scan into a nil map makes a new one
		return nil
	})
	return err
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
