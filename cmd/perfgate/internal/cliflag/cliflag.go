// Package cliflag parses a perfgate command's flags the way users type them:
// flags may come before, between and after the positional arguments, "--"
// ends the flags, and "-" is a positional argument (standard input). Errors
// are one line that names the flag as --flag and suggests the nearest one on
// a typo; nothing is printed here.
//
// It imports only the standard library.
package cliflag

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrHelp is returned by Parse when -h, -help or --help was asked for and
// the flag set defines no flag of that name.
var ErrHelp = flag.ErrHelp

// An Error is a flag that could not be parsed.
type Error struct {
	Flag    string // the flag's name, without dashes
	Msg     string // what is wrong, e.g. "unknown flag"
	Suggest string // the nearest defined flag on a typo, or ""
	Err     error  // the value's parse error, if any
}

func (e *Error) Error() string {
	s := "--" + e.Flag + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Suggest != "" {
		s += " (did you mean --" + e.Suggest + "?)"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

type boolFlag interface{ IsBoolFlag() bool }

// Parse parses args into fs. Afterwards fs.Args() holds the positional
// arguments in the order given.
func Parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "" || strings.HasPrefix(name, "-") {
			return &Error{Flag: strings.TrimLeft(name, "-"), Msg: fmt.Sprintf("bad flag syntax %q", a)}
		}
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return ErrHelp
			}
			return &Error{Flag: name, Msg: "unknown flag", Suggest: Suggest(name, names(fs))}
		}
		if !hasValue {
			if bf, ok := f.Value.(boolFlag); ok && bf.IsBoolFlag() {
				value = "true"
			} else if i+1 < len(args) {
				i++
				value = args[i]
			} else {
				return &Error{Flag: name, Msg: "needs a value"}
			}
		}
		if err := fs.Set(name, value); err != nil {
			return &Error{Flag: name, Msg: fmt.Sprintf("invalid value %q", value), Err: err}
		}
	}
	// Everything left is positional: "--" keeps the flag package from
	// reading any of it as a flag.
	return fs.Parse(append([]string{"--"}, pos...))
}

func names(fs *flag.FlagSet) []string {
	var ns []string
	fs.VisitAll(func(f *flag.Flag) { ns = append(ns, f.Name) })
	return ns
}

// PrintDefaults writes fs's flags to w like flag.PrintDefaults, but spelled
// --flag, the way every perfgate message names them.
func PrintDefaults(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		var b strings.Builder
		fmt.Fprintf(&b, "  --%s", f.Name)
		name, usage := flag.UnquoteUsage(f)
		if name != "" {
			b.WriteString(" " + name)
		}
		b.WriteString("\n    \t")
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		switch d := f.DefValue; {
		case d == "" || d == "false" || d == "0" || d == "0s" || strings.Contains(usage, "(default"):
			// A zero value says nothing, and a usage that states its own
			// default (e.g. "default 15s; 1s with --fast") is not repeated.
		case strings.ContainsAny(d, " \t"):
			fmt.Fprintf(&b, " (default %q)", d)
		default:
			fmt.Fprintf(&b, " (default %s)", d)
		}
		fmt.Fprintln(w, b.String())
	})
}
