package db

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/jackc/pgx/v5/pgtype"
)

// registerFloat8Array makes m encode a []float64 sent as float8[] in the
// binary format with encodeFloat8Array, and leaves everything else to
// pgx's codec. pgx's own plan boxes every element into an interface to
// encode it (a tenth of the client's CPU in recording a run of 10^7
// samples, docs/speed.md); the bytes on the wire are the same.
func registerFloat8Array(m *pgtype.Map) {
	t, ok := m.TypeForOID(pgtype.Float8ArrayOID)
	if !ok {
		return
	}
	m.RegisterType(&pgtype.Type{Name: t.Name, OID: t.OID, Codec: float8ArrayCodec{t.Codec}})
}

// A float8ArrayCodec is pgx's float8[] codec with a plan of its own for
// encoding []float64 in the binary format.
type float8ArrayCodec struct{ pgtype.Codec }

func (c float8ArrayCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.([]float64); ok && format == pgtype.BinaryFormatCode {
		return encodeFloat8Array{}
	}
	return c.Codec.PlanEncode(m, oid, format, value)
}

// encodeFloat8Array writes a []float64 as Postgres's binary array: a
// header (dimensions, a has-nulls flag, the element type, and the length
// and lower bound of the one dimension), then each element's length and
// big-endian IEEE 754 bits. A nil slice is NULL.
type encodeFloat8Array struct{}

func (encodeFloat8Array) Encode(value any, buf []byte) ([]byte, error) {
	x := value.([]float64)
	if x == nil {
		return nil, nil
	}
	buf = slices.Grow(buf, 20+12*len(x))
	buf = binary.BigEndian.AppendUint32(buf, 1) // dimensions
	buf = binary.BigEndian.AppendUint32(buf, 0) // no NULL elements
	buf = binary.BigEndian.AppendUint32(buf, pgtype.Float8OID)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(x)))
	buf = binary.BigEndian.AppendUint32(buf, 1) // lower bound
	for _, v := range x {
		buf = binary.BigEndian.AppendUint32(buf, 8)
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf, nil
}
