package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
)

// A ptxItem is one top-level definition or declaration of a PTX module:
// an .entry, a .func, a .global/.const variable, or a header directive.
type ptxItem struct {
	name string // "" for header directives
	text string
}

var (
	ptxEntryRe = regexp.MustCompile(`\.entry\s+([A-Za-z_$][\w$]*)`)
	ptxFuncRe  = regexp.MustCompile(`\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)`)
	ptxVarRe   = regexp.MustCompile(`\.(?:global|const|shared)\s.*?([A-Za-z_$][\w$]*)\s*(?:\[[^\]]*\]\s*)*(?:=|;)`)
	ptxWordRe  = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
)

// splitPTX splits a module's text into its top-level items, dropping
// comments and blank lines, so that comments (compiler build ids, file
// names) never change a hash.
func splitPTX(ptx string) []ptxItem {
	var items []ptxItem
	var cur []string
	depth, opened := 0, false
	flush := func() {
		text := strings.Join(cur, "\n")
		items = append(items, ptxItem{name: ptxName(text), text: text})
		cur, opened = nil, false
	}
	for _, line := range strings.Split(ptx, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if depth == 0 && len(cur) == 0 && isPTXHeader(line) {
			items = append(items, ptxItem{text: line})
			continue
		}
		cur = append(cur, line)
		for _, r := range line {
			switch r {
			case '{':
				depth, opened = depth+1, true
			case '}':
				depth--
			}
		}
		if depth == 0 && (opened || strings.HasSuffix(line, ";")) {
			flush()
		}
	}
	if len(cur) > 0 {
		flush()
	}
	return items
}

func isPTXHeader(line string) bool {
	for _, d := range []string{".version", ".target", ".address_size"} {
		if strings.HasPrefix(line, d) {
			return true
		}
	}
	return false
}

// ptxName returns the name an item defines or declares.
func ptxName(text string) string {
	head, _, _ := strings.Cut(text, "{")
	for _, re := range []*regexp.Regexp{ptxEntryRe, ptxFuncRe, ptxVarRe} {
		if m := re.FindStringSubmatch(head); m != nil {
			return m[1]
		}
	}
	return ""
}

// entryHash returns the hex SHA-256 of what the named kernel entries are
// made of in a PTX module: the module's header directives, the entries, and
// every function and variable they reach, in a fixed order. Unlike a hash of
// the whole module, it changes only when those kernels change, so a kernel
// that did not change can be recognised across runs even when another
// kernel of its module did. Names not found contribute nothing; with none
// found it returns "".
func entryHash(ptx string, entries ...string) string {
	items := splitPTX(ptx)
	byName := map[string][]string{}
	var header []string
	for _, it := range items {
		if it.name == "" {
			header = append(header, it.text)
			continue
		}
		byName[it.name] = append(byName[it.name], it.text)
	}
	seen := map[string]bool{}
	queue := slices.Clone(entries)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] || byName[name] == nil {
			continue
		}
		seen[name] = true
		for _, text := range byName[name] {
			for _, w := range ptxWordRe.FindAllString(text, -1) {
				if !seen[w] && byName[w] != nil {
					queue = append(queue, w)
				}
			}
		}
	}
	if len(seen) == 0 {
		return ""
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, part := range header {
		h.Write([]byte(part + "\n"))
	}
	for _, n := range names {
		for _, text := range byName[n] {
			h.Write([]byte{0})
			h.Write([]byte(text))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
