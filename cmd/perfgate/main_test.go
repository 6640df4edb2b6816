package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestEveryCommandHelp checks every registered command: --help and -h print
// its usage and flags on standard output ("perfgate run --help | less"
// shows them) and exit 0; an unknown flag is a usage error on standard
// error (exit 2).
func TestEveryCommandHelp(t *testing.T) {
	if len(commands) < 10 {
		t.Fatalf("only %d commands registered", len(commands))
	}
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
				stdout, stderr, code := invoke(t, nil, args...)
				if code != 0 || !strings.Contains(stdout, "usage: perfgate "+name) || stderr != "" {
					t.Errorf("perfgate %s: exit %d, stdout %q, stderr %q; want 0, its usage on stdout and nothing on stderr", strings.Join(args, " "), code, stdout, stderr)
				}
				if name != "action" && name != "version" && name != "worker" && !strings.Contains(stdout, "flags:\n  --") {
					t.Errorf("perfgate %s lists no flags:\n%s", strings.Join(args, " "), stdout)
				}
			}
			if stdout, stderr, code := invoke(t, nil, name, "--no-such-flag"); code != 2 || !strings.Contains(stderr, "-no-such-flag") || stdout != "" {
				t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q; want 2 naming the flag on stderr", name, code, stdout, stderr)
			}
		})
	}
}

// TestChartHelp: chart --help lists the flags of both charts (it printed
// only its two usage lines).
func TestChartHelp(t *testing.T) {
	stdout, _, code := invoke(t, nil, "chart", "--help")
	for _, want := range []string{"usage: perfgate chart trend", "usage: perfgate chart compare", "  --benchmark PATTERN", "  --report FILE", "  --out FILE", "  --store DIR"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("chart --help: exit %d, stdout lacks %q:\n%s", code, want, stdout)
		}
	}
}

// TestTopLevel checks the dispatcher: the command list, unknown commands
// and perfgate version with its --version spelling.
func TestTopLevel(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"no arguments", nil, 2, "", "\tperfgate <command> [flags]"},
		{"help", []string{"help"}, 0, "Perfgate is a GPU performance gate", ""},
		{"--help", []string{"--help"}, 0, "Perfgate is a GPU performance gate", ""},
		{"-h", []string{"-h"}, 0, "Perfgate is a GPU performance gate", ""},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"help of an unknown command", []string{"help", "comapre"}, 2, "", `unknown command "comapre" (did you mean "compare"?)`},
		{"version", []string{"version"}, 0, "perfgate ", ""},
		{"--version", []string{"--version"}, 0, "perfgate ", ""},
		{"version with an argument", []string{"version", "extra"}, 2, "", `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := invoke(t, nil, tt.args...)
			if code != tt.code || !strings.HasPrefix(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("perfgate %s: exit %d, stdout %q, stderr %q; want %d, stdout prefix %q, stderr containing %q",
					strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	usage := func() string { s, _, _ := invoke(t, nil, "help"); return s }()
	// The usage is doc.go's comment: its command list must be the
	// registered commands, no more, no fewer.
	_, list, _ := strings.Cut(usage, "Commands:\n\n")
	list, _, _ = strings.Cut(list, "\n\n")
	var listed []string
	for _, l := range strings.Split(list, "\n") {
		listed = append(listed, strings.Fields(l)[0])
	}
	for name := range commands {
		if !slices.Contains(listed, name) {
			t.Errorf("doc.go's command list does not name %s", name)
		}
	}
	if len(listed) != len(commands) {
		t.Errorf("doc.go lists %d commands %q; %d are registered", len(listed), listed, len(commands))
	}
}

// TestHelpSaysWhatTheCommandDoes: a command's --help lists only flags it
// reads, and says only what it does: --history is check's (compare listed
// it), and only record and check spool runs past --db-timeout (trend, site
// and prune spoke of spooling).
func TestHelpSaysWhatTheCommandDoes(t *testing.T) {
	help := func(cmd string) string { s, _, _ := invoke(t, nil, cmd, "--help"); return s }
	for _, cmd := range []string{"compare", "ab"} {
		if h := help(cmd); strings.Contains(h, "--history") {
			t.Errorf("%s --help lists check's --history:\n%s", cmd, h)
		}
	}
	if h := help("check"); !strings.Contains(h, "  --history int") {
		t.Errorf("check --help lacks --history:\n%s", h)
	}
	for _, cmd := range []string{"trend", "site", "prune", "chart", "migrate", "upload", "record", "check"} {
		_, usage, found := strings.Cut(help(cmd), "  --db-timeout string\n")
		usage, _, _ = strings.Cut(usage, "\n")
		if !found || !strings.Contains(usage, "exits 3") {
			t.Errorf("%s --help: no --db-timeout saying it exits 3: %q", cmd, usage)
		}
		if spools := strings.Contains(usage, "spool"); spools != (cmd == "record" || cmd == "check") {
			t.Errorf("%s --help: --db-timeout %q: mentions spooling %v, want %v", cmd, usage, spools, !spools)
		}
	}
}

// TestRoundsDefaultsExplained: the three defaults of rounds (run 1, the
// action 3, ab 5) differ, and each help text says why.
func TestRoundsDefaultsExplained(t *testing.T) {
	flagHelp := func(cmd, flag string) string {
		h, _, _ := invoke(t, nil, cmd, "--help")
		_, usage, _ := strings.Cut(h, "  --"+flag+" int\n")
		usage, _, _ = strings.Cut(usage, "\n")
		return usage
	}
	if h := flagHelp("run", "rounds"); !strings.Contains(h, "Default 1: the quickest look while you work") || !strings.Contains(h, "the action runs 3: a 15% slowdown") {
		t.Errorf("run --help, --rounds: %q; want why 1, and why the action runs 3", h)
	}
	if h := flagHelp("ab", "rounds"); !strings.Contains(h, "Default 5, more than the action's 3: ab reads no stored history") || !strings.Contains(h, "(default 5)") {
		t.Errorf("ab --help, --rounds: %q; want why 5", h)
	}
	yml, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(yml), "Empty means 3, for a gate: a +15% slowdown at a 3% run-to-run spread is caught 98% of the time with 3 rounds against 47% with 1") {
		t.Error("action.yml's rounds input does not say why it defaults to 3")
	}
}
