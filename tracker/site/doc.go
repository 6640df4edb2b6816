// Package site builds perfgate's static dashboard: one HTML page per
// suite, its data as one JSON file per suite (loaded by that page only),
// each series downsampled with Largest-Triangle-Three-Buckets so a page
// stays fast with 10,000 runs, and the change points of each series'
// latest runs (tracker/trend). Build is pure: it returns the files and
// reads no clock, files or environment; Write writes them, and Publish
// reads the history (a history.TrendSource), builds and writes.
package site
