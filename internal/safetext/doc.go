// Package safetext holds the rules for text from outside (benchmark names,
// run ids, branches, testbeds) where it reaches something a person reads
// or a spreadsheet opens, which no single output format owns: the Unicode
// bidirectional controls that make a name display reversed (Bidi), and CSV
// cells a spreadsheet would run as formulas or split at a separator
// (Writer). Each output's own escaping (Markdown, HTML, LaTeX, XML) stays
// with its renderer. It imports only the standard library.
package safetext
