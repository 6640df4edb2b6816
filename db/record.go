package db

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Record stores a run in one transaction: the run row, then one
// run_benchmarks row per benchmark with its raw samples, through COPY.
// Recording a run ID again with the same content is a no-op (model.Duplicate); with other
// content it is a *model.ConflictError. Testbed and benchmark rows are
// shared dimension rows, inserted beforehand in key order in their own
// short statements so concurrent writers never deadlock on them.
//
// The content hash (encoding every sample) is computed while the server
// works on the lookups and the dimension rows, which need no hash.
func (s *Store) Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error) {
	return s.RecordSource(ctx, resultsjson.SourceOf(r))
}

// RecordSource is Record for a run read a benchmark at a time: the rows
// are built from the benchmarks' heads, and each benchmark's samples are
// read as COPY asks for its row, so a results file's samples are never
// held whole.
func (s *Store) RecordSource(ctx context.Context, src *resultsjson.Source) (model.RecordOutcome, error) {
	hashed := make(chan struct{})
	var sum []byte
	var hashErr error
	go func() {
		defer close(hashed)
		sum, hashErr = contentHash(src)
	}()
	wait := func() error { <-hashed; return hashErr }
	defer wait() // the run is the caller's again only once the hash is done
	id := src.Run.ID
	have, found, err := s.storedHash(ctx, id)
	if err != nil {
		return 0, err
	}
	if found {
		if err := wait(); err != nil {
			return 0, err
		}
		out, _, err := sameContent(id, have, sum)
		return out, err
	}
	tb, err := s.testbedID(ctx, model.FingerprintOf(&src.Run), src.Run.Env)
	if err != nil {
		return 0, err
	}
	benchIDs, err := s.benchmarkIDs(ctx, src.Heads())
	if err != nil {
		return 0, err
	}
	if err := wait(); err != nil {
		return 0, err
	}
	var out model.RecordOutcome
	var readErr error // reading the benchmarks failed: the results file changed
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		out, readErr, err = insertRun(ctx, tx, src, sum, tb, benchIDs)
		return err
	})
	switch {
	case readErr != nil:
		return 0, readErr
	case err != nil && !isConflict(err):
		return 0, storeError("record run "+id, err)
	}
	return out, err
}

// storeError reports a failed write: bad input when the database rejected
// the data itself (a data exception or a violated constraint: retrying or
// spooling cannot help), an infrastructure failure otherwise.
func storeError(op string, err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "22") || strings.HasPrefix(pgErr.Code, "23") || strings.HasPrefix(pgErr.Code, "54")) {
		return &model.InputError{Msg: fmt.Sprintf("%s: the database rejected it: %s", op, pgErr.Message), Err: err}
	}
	return infra(op, err)
}

func isConflict(err error) bool { return errors.As(err, new(*model.ConflictError)) }

// contentHash is the SHA-256 of the run's canonical JSON (model.Results.ContentHash:
// benchmark order, time zone and empty-versus-absent fields do not count).
func contentHash(src *resultsjson.Source) ([]byte, error) {
	sum, err := src.ContentHash()
	if err != nil && !model.IsInputError(err) { // an input error names the file
		return nil, &model.InputError{Msg: "cannot encode run " + src.Run.ID, Err: err}
	}
	return sum, err
}

// storedHash returns the content hash of run id if it is stored.
func (s *Store) storedHash(ctx context.Context, id string) (sum []byte, found bool, err error) {
	err = s.pool.QueryRow(ctx, "select content_sha256 from runs where id = $1", id).Scan(&sum)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, infra("look up run "+id, err)
	}
	return sum, true, nil
}

func sameContent(id string, have, sum []byte) (model.RecordOutcome, bool, error) {
	if string(have) != string(sum) {
		return 0, true, &model.ConflictError{RunID: id}
	}
	return model.Duplicate, true, nil
}

// insertRun writes the run inside tx. When another writer stored the same
// ID first, the insert does nothing and the stored content decides.
// readErr is the error of reading the run's benchmarks, if that failed.
func insertRun(ctx context.Context, tx pgx.Tx, src *resultsjson.Source, sum []byte, tb int64, benchIDs []benchRow) (out model.RecordOutcome, readErr, err error) {
	var pk int64
	r := &src.Run
	err = tx.QueryRow(ctx, `
		insert into runs (id, content_sha256, repo, commit, branch, pr, event, testbed_id,
		                  started_at, run_group, env, status)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		on conflict (id) do nothing
		returning pk`,
		r.ID, sum, r.Repo, r.Commit, r.Branch, nullInt(r.PR), r.Event, tb,
		r.StartedAt, nullString(r.Group), envJSON(r.Env), runStatus(src)).Scan(&pk)
	if errors.Is(err, pgx.ErrNoRows) {
		var have []byte
		if err := tx.QueryRow(ctx, "select content_sha256 from runs where id = $1", r.ID).Scan(&have); err != nil {
			return 0, nil, err
		}
		out, _, err := sameContent(r.ID, have, sum)
		return out, nil, err
	}
	if err != nil {
		return 0, nil, err
	}
	if readErr, err = copyBenchmarks(ctx, tx, pk, src, benchIDs); err != nil {
		return 0, readErr, err
	}
	return model.Recorded, nil, nil
}

// runStatus is ok when every benchmark has samples, failed when none has,
// partial otherwise.
func runStatus(src *resultsjson.Source) string {
	if src.Failed() {
		return "failed"
	}
	for _, h := range src.Heads() {
		if h.N == 0 {
			return "partial"
		}
	}
	return "ok"
}

// copyBenchmarks writes the run_benchmarks rows of a run, each with its
// samples (vals), in one COPY. Each row is built when COPY asks for it,
// from the benchmark read then (src.Each, pulled), so no second copy of
// the run is held, nor, from a file, the run itself. readErr is the error
// of reading the benchmarks, if that is what failed.
func copyBenchmarks(ctx context.Context, tx pgx.Tx, pk int64, src *resultsjson.Source, rows []benchRow) (readErr, err error) {
	next, stop := iter.Pull2(func(yield func(int, *model.Benchmark) bool) {
		readErr = src.Each(func(i int, b *model.Benchmark) error {
			if !yield(i, b) {
				return errStopped
			}
			return nil
		})
	})
	defer stop()
	row := make([]any, 12)
	var z summarizer
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"run_benchmarks"},
		[]string{"run_pk", "benchmark_id", "ord", "n", "median", "cv", "params", "metrics", "info", "summary_only", "error", "vals"},
		pgx.CopyFromFunc(func() ([]any, error) {
			i, b, ok := next() // b is valid until the next call: COPY has encoded its row by then
			if !ok {
				return nil, readErr
			}
			// COPY encodes this row before it asks for the next: z's figures
			// and b's samples are read by then.
			n, median, cv := z.summarize(b.Samples)
			var params any // NULL: the same as the benchmark row's
			if !maps.Equal(b.Params, rows[i].params) {
				params = map[string]string{} // '{}', not NULL: this run has none
				if len(b.Params) > 0 {
					params = b.Params
				}
			}
			var vals []float64 // NULL: no samples
			if len(b.Samples) > 0 {
				vals = b.Samples
			}
			row[0], row[1], row[2], row[3], row[4], row[5] = pk, rows[i].id, i, n, median, cv
			row[6], row[7], row[8], row[9], row[10], row[11] = params, nullMap(b.Metrics), nullMap(b.Info), b.SummaryOnly, nullString(b.Error), vals
			return row, nil
		}))
	if err != nil {
		if readErr != nil && readErr != errStopped {
			return readErr, err
		}
		return nil, fmt.Errorf("copy benchmarks: %w", err)
	}
	return nil, nil
}

// errStopped ends a read of the benchmarks that COPY no longer wants.
var errStopped = errors.New("stopped")

// testbedID returns the id of the testbed row for fp and the full driver and
// NVRTC versions in env, inserting it when new.
func (s *Store) testbedID(ctx context.Context, fp model.Fingerprint, env map[string]string) (int64, error) {
	args := []any{fp.Testbed, fp.GPU, env[model.EnvDriver], fp.CUDA, env[model.EnvNVRTC]}
	const sel = `select id from testbeds where label = $1 and gpu = $2 and driver = $3 and cuda = $4 and nvrtc = $5`
	var id int64
	for range 2 {
		err := s.pool.QueryRow(ctx, sel, args...).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return 0, infra("look up testbed", err)
		}
		// A concurrent writer may insert it first: then nothing is returned
		// and the next select (a new snapshot) sees its row.
		_, err = s.pool.Exec(ctx, `insert into testbeds (label, gpu, driver, cuda, nvrtc)
			values ($1, $2, $3, $4, $5) on conflict do nothing`, args...)
		if err != nil {
			return 0, storeError("insert testbed", err)
		}
	}
	return 0, infra("insert testbed", errors.New("testbed row vanished after insert"))
}

// benchmarkIDs returns the benchmark row of each of bs, in order,
// inserting new ones. Existing rows are looked up first, so the steady
// state (a project recording the same benchmarks run after run) inserts
// nothing. The insert sorts the rows by key, so two writers adding
// overlapping sets lock them in the same order.
func (s *Store) benchmarkIDs(ctx context.Context, bs []resultsjson.BenchmarkHead) ([]benchRow, error) {
	keys, params := newBenchmarkRows(bs)
	rows, found, err := s.lookupBenchmarks(ctx, keys)
	if err != nil {
		return nil, err
	}
	var missing []int
	for i, ok := range found {
		if !ok {
			missing = append(missing, i)
		}
	}
	batch, err := s.insertBatch(ctx, len(missing))
	if err != nil {
		return nil, err
	}
	if batch < len(missing) {
		slices.SortFunc(missing, func(i, j int) int { return keys[i].compare(keys[j]) })
	}
	freshKeys, freshParams := make([]benchKey, 0, batch), make([]map[string]string, 0, batch)
	for off := 0; off < len(missing); off += batch {
		part := missing[off:min(off+batch, len(missing))]
		freshKeys, freshParams = freshKeys[:0], freshParams[:0]
		for _, i := range part {
			freshKeys, freshParams = append(freshKeys, keys[i]), append(freshParams, params[i])
		}
		freshRows, err := s.insertBenchmarks(ctx, freshKeys, freshParams)
		if err != nil {
			return nil, err
		}
		for j, i := range part {
			rows[i] = freshRows[j]
		}
	}
	return rows, nil
}

// insertBatch is how many of n new benchmarks rows one insert sends. The
// rows are numbered (their ids) in the order the insert sorts them, the
// database's collation; inserted lookupBatch at a time, in key order,
// they are numbered as one insert would number them only where that
// collation orders text as Go orders strings, byte by byte (C, POSIX,
// C.UTF-8 under libc), so elsewhere they are inserted at once.
func (s *Store) insertBatch(ctx context.Context, n int) (int, error) {
	if n <= lookupBatch {
		return n, nil
	}
	var bytewise bool
	// datlocprovider is Postgres 15's (c: libc); to_jsonb reads it where
	// it exists.
	err := s.pool.QueryRow(ctx, `
		select coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') = 'c'
			and datcollate in ('C', 'POSIX', 'C.UTF-8', 'C.utf8')
		from pg_database d where datname = current_database()`).Scan(&bytewise)
	if err != nil {
		return 0, infra("read the database's collation", err)
	}
	if !bytewise {
		return n, nil
	}
	return lookupBatch, nil
}

// insertBenchmarks inserts the benchmarks rows of keys, with params, which
// were not stored, and returns them in order. A plain insert comes first:
// it costs about half of one that resolves conflicts (INSERT ... ON
// CONFLICT writes a speculative insertion and its confirmation per row,
// docs/speed.md). When another writer stored some of the same rows
// meanwhile, it fails as a whole, and the rows are inserted again skipping
// those already there.
func (s *Store) insertBenchmarks(ctx context.Context, keys []benchKey, params []map[string]string) ([]benchRow, error) {
	var cols [4][]string
	benchColumns(&cols, keys)
	const insert = `
		insert into benchmarks (suite, name, unit, better, params)
		select s, n, u, b, coalesce(p, '{}') from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[])
			as k(s, n, u, b, p)
		order by s, n, u, b`
	rows, err := s.insertedBenchmarks(ctx, insert+" returning id, suite, name, unit, better", keys, cols, params)
	if err == nil {
		return rows, nil
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" { // unique_violation
		return nil, storeError("insert benchmarks", err)
	}
	if _, err := s.pool.Exec(ctx, insert+" on conflict do nothing", cols[0], cols[1], cols[2], cols[3], params); err != nil {
		return nil, storeError("insert benchmarks", err)
	}
	rows, found, err := s.lookupBenchmarks(ctx, keys)
	if err != nil {
		return nil, err
	}
	for i, ok := range found {
		if !ok {
			return nil, infra("look up benchmarks", fmt.Errorf("benchmark %s/%s vanished after insert", keys[i].suite, keys[i].name))
		}
	}
	return rows, nil
}

// insertedBenchmarks runs insert, which returns the id and key of each row
// it inserts, and returns the rows in the order of keys.
func (s *Store) insertedBenchmarks(ctx context.Context, insert string, keys []benchKey, cols [4][]string, params []map[string]string) ([]benchRow, error) {
	at := make(map[benchKey]int, len(keys))
	for i, k := range keys {
		at[k] = i
	}
	out := make([]benchRow, len(keys))
	n := 0
	var id int64
	var k benchKey
	rows, err := s.pool.Query(ctx, insert, cols[0], cols[1], cols[2], cols[3], params)
	if err != nil {
		return nil, err
	}
	_, err = pgx.ForEachRow(rows, []any{&id, &k.suite, &k.name, &k.unit, &k.better}, func() error {
		i, ok := at[k]
		if !ok {
			return fmt.Errorf("inserted benchmark %s/%s was not asked for", k.suite, k.name)
		}
		out[i] = benchRow{id: id, params: params[i]}
		n++
		return nil
	})
	if err == nil && n != len(keys) {
		err = fmt.Errorf("%d benchmarks rows inserted for %d", n, len(keys))
	}
	return out, err
}

// newBenchmarkRows returns the key and params of each of bs, in order:
// the rows to look up, and to insert (the insert sorts them, in the
// server's collation, so that writers lock rows in one order). Its cost is
// linear in the benchmarks (TestRecordArgsLinear).
func newBenchmarkRows(bs []resultsjson.BenchmarkHead) (keys []benchKey, params []map[string]string) {
	keys = make([]benchKey, len(bs))
	params = make([]map[string]string, len(bs))
	for i := range bs {
		keys[i] = benchKey{bs[i].Suite, bs[i].Name, bs[i].Unit, string(bs[i].Better)}
		params[i] = bs[i].Params
	}
	return keys, params
}
