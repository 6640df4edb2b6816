package cliflag

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func newSet() (*flag.FlagSet, *string, *string, *bool, *int) {
	fs := flag.NewFlagSet("perfgate ingest", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "")
	out := fs.String("out", "", "")
	dry := fs.Bool("dry-run", false, "")
	n := fs.Int("rounds", 1, "")
	return fs, format, out, dry, n
}

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		pos        []string
		format     string
		out        string
		dry        bool
		rounds     int
		wantErr    string // substring; "" means success
		wantSugges string
	}{
		{"flags first", []string{"--format", "gotest", "--out", "r.json", "b.txt"}, []string{"b.txt"}, "gotest", "r.json", false, 1, "", ""},
		// Defect: the flag after the file was read as a file.
		{"flag after the file", []string{"--format", "gotest", "b.txt", "--out", "r.json"}, []string{"b.txt"}, "gotest", "r.json", false, 1, "", ""},
		{"flags between files", []string{"a.txt", "-format=gotest", "b.txt", "--dry-run", "c.txt"}, []string{"a.txt", "b.txt", "c.txt"}, "gotest", "", true, 1, "", ""},
		{"dash is stdin", []string{"--format", "gotest", "-"}, []string{"-"}, "gotest", "", false, 1, "", ""},
		{"double dash ends flags", []string{"--out", "x", "--", "--format", "-y"}, []string{"--format", "-y"}, "", "x", false, 1, "", ""},
		{"bool with value", []string{"--dry-run=false", "f"}, []string{"f"}, "", "", false, 1, "", ""},
		{"negative number value", []string{"--rounds", "-3"}, nil, "", "", false, -3, "", ""},
		{"typo", []string{"--fromat", "gotest"}, nil, "", "", false, 1, "--fromat: unknown flag", "format"},
		{"unknown far from all", []string{"--zzzzzz"}, nil, "", "", false, 1, "--zzzzzz: unknown flag", ""},
		{"missing value", []string{"b.txt", "--out"}, nil, "", "", false, 1, "--out: needs a value", ""},
		{"bad int", []string{"--rounds", "x"}, nil, "", "", false, 1, `--rounds: invalid value "x": parse error`, ""},
		{"triple dash", []string{"---out", "x"}, nil, "", "", false, 1, "bad flag syntax", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, format, out, dry, rounds := newSet()
			err := Parse(fs, tt.args)
			if tt.wantErr != "" {
				var fe *Error
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) || fe.Suggest != tt.wantSugges {
					t.Fatalf("Parse(%q) = %v; want an *Error containing %q suggesting %q", tt.args, err, tt.wantErr, tt.wantSugges)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.args, err)
			}
			if got := fs.Args(); !slices.Equal(got, tt.pos) && !(len(got) == 0 && len(tt.pos) == 0) {
				t.Errorf("Args() = %q, want %q", got, tt.pos)
			}
			if *format != tt.format || *out != tt.out || *dry != tt.dry || *rounds != tt.rounds {
				t.Errorf("format %q out %q dry-run %v rounds %d; want %q %q %v %d", *format, *out, *dry, *rounds, tt.format, tt.out, tt.dry, tt.rounds)
			}
		})
	}
}

func TestParseHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		fs, _, _, _, _ := newSet()
		if err := Parse(fs, []string{"x", h}); !errors.Is(err, ErrHelp) {
			t.Errorf("Parse(%s) = %v, want ErrHelp", h, err)
		}
	}
}

func TestSuggest(t *testing.T) {
	cmds := []string{"ab", "action", "chart", "check", "compare", "ingest", "prune", "record", "run", "trend"}
	tests := []struct{ in, want string }{
		{"ingset", "ingest"},
		{"fromat", ""}, // not a command
		{"chekc", "check"},
		{"trnd", "trend"},
		{"comp", "compare"},
		{"xyz", ""},
		{"ru", "run"},
	}
	for _, tt := range tests {
		if got := Suggest(tt.in, cmds); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPrintDefaults(t *testing.T) {
	fs, _, _, _, _ := newSet()
	fs.String("since", "90d", "only runs from this `age`")
	var b strings.Builder
	PrintDefaults(&b, fs)
	for _, want := range []string{"  --format string\n", "  --since age\n", "(default 90d)", "  --dry-run\n", "(default 1)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("PrintDefaults output lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "\n  -f") {
		t.Errorf("a flag is printed with one dash:\n%s", b.String())
	}
}

// TestPrintDefaultsNoRepeat: a zero duration is no default worth printing,
// and a usage that states its own default is not followed by a second one
// (run --help printed "(default 15s; 1s with --fast) (default 0s)").
func TestPrintDefaultsNoRepeat(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.Duration("max-time", 0, "cap on one benchmark (default 15s; 1s with --fast)")
	fs.Duration("timeout", 0, "give up after this long")
	fs.Int("history", 20, "jobs that inform the spread (default 20 when the config says nothing)")
	var b strings.Builder
	PrintDefaults(&b, fs)
	out := b.String()
	for _, bad := range []string{"(default 0s)", "(default 20)"} {
		if strings.Contains(out, bad) {
			t.Errorf("PrintDefaults printed %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "(default 15s; 1s with --fast)") {
		t.Errorf("PrintDefaults dropped the usage's own default:\n%s", out)
	}
}
