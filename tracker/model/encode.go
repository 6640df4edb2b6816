package model

import "encoding/json"

// AppendJSON appends the JSON of b to dst, exactly the bytes of
// json.Marshal(b), and returns the extended slice. WriteJSON and the
// content hash encode a run a benchmark at a time through it.
func (b *Benchmark) AppendJSON(dst []byte) ([]byte, error) {
	p, err := json.Marshal(b)
	if err != nil {
		return dst, err
	}
	return append(dst, p...), nil
}
