// Package resultsjson is the results-v1 codec and the one results loader.
// Its scanner decodes and checks a document in one pass, as it is read
// (Load, Parse; errors name the file and the JSON path), and its encoder
// writes exactly the bytes of json.Marshal a benchmark at a time (Encode,
// WriteFile, WriteJSON, ContentHash), so a run of millions of samples is
// never held as text. A Source reads a run a benchmark at a time, from a
// file or from memory, for the stores' one recording path.
//
// It imports tracker/model and internal/atomicfile, and no other perfgate
// package.
package resultsjson
