package report

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxWord is the most characters of user text a rendered word keeps
// without a break opportunity: a word of 20 fits a table column beside
// the others at GitHub's comment width (780 px), and one of 26
// (CUDA_ERROR_ILLEGAL_ADDRESS) no longer does (TestCommentInBrowser).
const maxWord = 20

// wbr is the break opportunity perfgate writes; GitHub keeps the tag.
// User text cannot hold it: md writes its "<" as "&lt;".
const wbr = "<wbr>"

// breakLong gives each word of escaped text longer than maxWord
// characters break opportunities (wbr), so that it cannot widen a table
// past the comment (a benchmark name without "/", a path or a symbol in
// an error message, a hostile name): after punctuation (_ - . : = , ; /),
// between a lower-case letter or digit and a capital (camelCase), and
// after maxWord characters with none. The browser breaks only where the
// line needs it. An escape ("\_", "&lt;", a character and its zero-width
// joiner) counts as one character and is never split; Redact finds
// secrets across the breaks.
func breakLong(escaped string) string {
	words := strings.Split(escaped, " ")
	for i, w := range words {
		parts := strings.Split(w, wbr)
		for j, p := range parts {
			parts[j] = breakWord(p)
		}
		words[i] = strings.Join(parts, wbr)
	}
	return strings.Join(words, " ")
}

// breakWord is breakLong for one word without a break opportunity.
func breakWord(w string) string {
	var units []string
	for i := 0; i < len(w); {
		u := escapeUnit(w[i:])
		units = append(units, w[i:i+u])
		i += u
	}
	if len(units) <= maxWord {
		return w
	}
	var b strings.Builder
	n := 0 // characters since the last break opportunity
	for i, u := range units {
		last := i == len(units)-1
		if n > 0 && !breaksAfter(u) && (n == maxWord || camelStart(units[i-1], u)) {
			b.WriteString(wbr)
			n = 0
		}
		b.WriteString(u)
		n++
		if breaksAfter(u) && !last && !breaksAfter(units[i+1]) { // "--flag" breaks once
			b.WriteString(wbr)
			n = 0
		}
	}
	return b.String()
}

// breaksAfter reports whether u is punctuation a long word may break
// after, escaped or not.
func breaksAfter(u string) bool {
	u = strings.TrimPrefix(u, `\`)
	return len(u) == 1 && strings.Contains("_-.:=,;/", u)
}

// camelStart reports whether a capital letter u follows a lower-case
// letter or a digit prev: where a camelCase word may break.
func camelStart(prev, u string) bool {
	return len(prev) == 1 && len(u) == 1 && (prev[0] >= 'a' && prev[0] <= 'z' || prev[0] >= '0' && prev[0] <= '9') && u[0] >= 'A' && u[0] <= 'Z'
}

// escapeUnit is the length in bytes of the character of escaped text that
// s starts with, its escape included: a backslash and the character it
// escapes, an entity of escapeText, or a rune and the zero-width joiner
// after it.
func escapeUnit(s string) int {
	n := 0
	switch {
	case s[0] == '\\' && len(s) > 1:
		_, size := utf8.DecodeRuneInString(s[1:])
		n = 1 + size
	case strings.HasPrefix(s, "&amp;"):
		n = len("&amp;")
	case strings.HasPrefix(s, "&lt;"), strings.HasPrefix(s, "&gt;"):
		n = len("&lt;")
	default:
		_, n = utf8.DecodeRuneInString(s)
	}
	if strings.HasPrefix(s[n:], zwj) {
		n += len(zwj)
	}
	return n
}

// Redact replaces each secret of at least 4 bytes in rendered text by
// "***", wherever the renderers wrote it: as given, escaped for Markdown
// (md) or for HTML (htmlText), and across the break opportunities of long
// words (breakLong). The action runs it on every comment, summary and
// report before they leave the runner: benchmark names and errors come
// from a command's output, which may have printed the token.
func Redact(text string, secrets []string) string {
	for _, s := range secrets {
		if len(s) < 4 { // a shorter secret would blank out ordinary text
			continue
		}
		text = secretPattern(s).ReplaceAllString(text, "***")
	}
	return text
}

// secretPattern matches s in each form it may take in rendered text, with
// an optional break opportunity between any two of its characters.
func secretPattern(s string) *regexp.Regexp {
	var forms []string
	for _, f := range []string{plain(s), escapeText(s, true), escapeText(s, false)} {
		var units []string
		for i := 0; i < len(f); {
			u := escapeUnit(f[i:])
			units = append(units, regexp.QuoteMeta(f[i:i+u]))
			i += u
		}
		forms = append(forms, strings.Join(units, "(?:"+wbr+")?"))
	}
	return regexp.MustCompile(regexp.QuoteMeta(s) + "|" + strings.Join(forms, "|"))
}
