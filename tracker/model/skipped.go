package model

// InfoSkipped, in a benchmark's info, marks a benchmark that was not
// measured on purpose, and says why: its kernels' PTX is the baseline's
// (perfgate run --skip-unchanged-against). Such a benchmark has no
// samples; its Error repeats the reason for readers that do not know the
// key. Comparisons give it the verdict skipped, not error.
const InfoSkipped = "skipped"
