package db

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

// TestEncodeFloat8ArraySameBytes: the fast plan writes the bytes pgx's own
// codec writes, for NULL, empty, and values with every kind of bit pattern.
func TestEncodeFloat8ArraySameBytes(t *testing.T) {
	pgx, fast := pgtype.NewMap(), pgtype.NewMap()
	registerFloat8Array(fast)
	for name, x := range map[string][]float64{
		"nil":    nil,
		"empty":  {},
		"one":    {1},
		"values": {0, math.Copysign(0, -1), 1e-310, 1.5, -2.25e300, math.MaxFloat64, math.SmallestNonzeroFloat64},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := pgx.Encode(pgtype.Float8ArrayOID, pgtype.BinaryFormatCode, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := fast.PlanEncode(pgtype.Float8ArrayOID, pgtype.BinaryFormatCode, x).(encodeFloat8Array); !ok {
				t.Fatal("the fast plan is not chosen")
			}
			got, err := fast.Encode(pgtype.Float8ArrayOID, pgtype.BinaryFormatCode, x, nil)
			if err != nil || !bytes.Equal(got, want) || (got == nil) != (want == nil) {
				t.Errorf("Encode = %x, %v; pgx's codec: %x", got, err, want)
			}
		})
	}
}

// TestFloat8ArrayRoundTrip sends samples through the server and reads them
// back, the way Record and loadRuns do.
func TestFloat8ArrayRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	x := []float64{3, 1.25, -0.5, 1e300}
	var back []float64
	var isNull, emptyIsNull bool
	err := s.pool.QueryRow(context.Background(), "select $1::float8[], $2::float8[] is null, $3::float8[] is null",
		x, []float64(nil), []float64{}).Scan(&back, &isNull, &emptyIsNull)
	if err != nil || !slices.Equal(back, x) || !isNull || emptyIsNull {
		t.Errorf("round trip = %v, nil is NULL %v, empty is NULL %v, %v; want %v, true, false", back, isNull, emptyIsNull, err, x)
	}
}
