package report

import "strings"

// zwj is the zero-width joiner put after "@" and before the digits of
// "#123" so that user text never mentions anyone or links an issue.
const zwj = "\u200d"

// md escapes user text (benchmark names, reasons, environment values) for
// GitHub-flavoured Markdown, in prose and in table cells alike:
//   - "&", "<" and ">" become entities, so no raw HTML gets through;
//   - Markdown punctuation (\ ` * _ [ ] | ~) is backslash-escaped, so names
//     cannot open code spans, emphasis or links, and "|" cannot end a cell;
//   - "@", "#<digit>" and "GH-<digit>" get a zero-width joiner, so nobody
//     is pinged and no issue is cross-referenced;
//   - bidirectional controls become "?" (plain), so no name shows reversed;
//   - line breaks and control characters become spaces or "?", so a name
//     cannot end a table row;
//   - a word of more than maxWord characters gets break opportunities
//     (breakLong), so it cannot widen a table past the comment.
func md(s string) string { return breakLong(escapeText(s, true)) }

// htmlText escapes user text for the inside of a raw HTML block, such as
// the <summary> of a <details> element: GitHub does not parse Markdown
// there, so md's backslash escapes would show literally. It does what md
// does except the backslash escapes.
func htmlText(s string) string { return escapeText(s, false) }

// escapeText implements md (markdown true) and htmlText (false).
func escapeText(s string, markdown bool) string {
	s = plain(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '|', '~':
			if markdown {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '@':
			b.WriteString("@" + zwj)
		case '#':
			b.WriteByte('#')
			if digitAt(s, i+1) {
				b.WriteString(zwj)
			}
		case '-': // GitHub links "GH-123" (any case) to issue 123
			b.WriteByte('-')
			if i >= 2 && strings.EqualFold(s[i-2:i], "gh") && digitAt(s, i+1) {
				b.WriteString(zwj)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// digitAt reports whether s[i] is an ASCII digit.
func digitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// mdCode escapes user text with md and sets it in a monospace font. The
// <code> element is ours; its content is still parsed as Markdown, so the
// escapes of md hold inside it (unlike inside a backtick code span, where
// entities would show literally).
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	// <wbr> lets a long name break after a "/" (GitHub keeps the tag), and
	// inside a segment longer than maxWord: a name that cannot break widens
	// the table past the comment. Names of up to 20 characters fit beside
	// the other columns whole.
	if len([]rune(s)) <= 20 {
		return "<code>" + md(s) + "</code>"
	}
	return "<code>" + breakLong(strings.ReplaceAll(escapeText(s, true), "/", "/"+wbr)) + "</code>"
}

// mdValue is value for a table cell: a number never breaks from its unit.
// A word joiner (U+2060) after each - and / keeps cpu-µs/op whole.
func mdValue(v float64, unit string) string { return unbreakable.Replace(md(value(v, unit))) }

// unbreakable is built once: a Replacer builds its tables on first use, and
// a report of 10⁴ benchmarks spent 13% of its time rebuilding them.
var unbreakable = strings.NewReplacer(" ", "\u00a0", "-", "-\u2060", "/", "/\u2060")
