package report

import (
	"fmt"
	"strings"
)

// A ShardProgress says which shards of a sharded job a merged report
// holds: Labels[i] names shard i ("" for a shard not reported yet).
type ShardProgress struct {
	Count  int
	Labels []string // by shard index; len Count
	// Notes say what the merge left out or took from elsewhere: a report
	// that could not be read, results of an earlier attempt.
	Notes []string
}

// Reported counts the shards with a label.
func (p ShardProgress) Reported() int {
	n := 0
	for _, l := range p.Labels {
		if l != "" {
			n++
		}
	}
	return n
}

// Complete reports whether every shard has reported.
func (p ShardProgress) Complete() bool { return p.Reported() == p.Count }

// ShardLine says in one line how many shards reported and which are
// missing, e.g. "2 of 3 shards reported (waiting for shard 1)".
func (p ShardProgress) ShardLine() string {
	s := fmt.Sprintf("%d of %d shards reported", p.Reported(), p.Count)
	var missing []string
	for i, l := range p.Labels {
		if l == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		s += " (waiting for shard " + missing[0] + ")"
	default:
		s += " (waiting for shards " + strings.Join(missing, ", ") + ")"
	}
	return s
}

// WithShards adds, under the title of doc, the line saying which shards
// the report merges and, while some are missing, that the verdict is not
// final.
func WithShards(doc string, p ShardProgress) string {
	if p.Count <= 1 {
		return doc
	}
	var b strings.Builder
	if p.Complete() {
		fmt.Fprintf(&b, "\n**Shards**: all %d reported: ", p.Count)
	} else {
		fmt.Fprintf(&b, "\n> [!NOTE]\n> **%s**: the verdict below covers the shards reported so far; this comment is updated as the others finish.\n\n**Shards**: ", md(p.ShardLine()))
	}
	var parts []string
	for i, l := range p.Labels {
		if l != "" {
			parts = append(parts, fmt.Sprintf("%d %s", i, mdCode(l)))
		}
	}
	b.WriteString(strings.Join(parts, " · ") + "\n")
	for _, n := range p.Notes {
		b.WriteString("\n> [!WARNING]\n> " + md(n) + "\n")
	}
	i := strings.Index(doc, "### ")
	if i < 0 {
		return b.String() + "\n" + doc
	}
	end := strings.IndexByte(doc[i:], '\n')
	if end < 0 {
		return doc + "\n" + b.String()
	}
	return doc[:i+end+1] + b.String() + doc[i+end+1:]
}
