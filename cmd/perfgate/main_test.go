package main

import (
	"slices"
	"strings"
	"testing"
)

// TestEveryCommandHelp checks every registered command: --help and -h print
// its usage and exit 0; an unknown flag is a usage error (exit 2).
func TestEveryCommandHelp(t *testing.T) {
	if len(commands) < 10 {
		t.Fatalf("only %d commands registered", len(commands))
	}
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			for _, h := range []string{"--help", "-h"} {
				_, stderr, code := invoke(t, nil, name, h)
				if code != 0 || !strings.Contains(stderr, "usage: perfgate "+name) {
					t.Errorf("%s %s: exit %d, stderr %q; want 0 and its usage", name, h, code, stderr)
				}
			}
			if _, stderr, code := invoke(t, nil, name, "--no-such-flag"); code != 2 || !strings.Contains(stderr, "-no-such-flag") {
				t.Errorf("%s --no-such-flag: exit %d, stderr %q; want 2 naming the flag", name, code, stderr)
			}
			if _, _, code := invoke(t, nil, "help", name); code != 0 {
				t.Errorf("help %s: exit %d, want 0", name, code)
			}
		})
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
		{"no arguments", nil, 2, "", "usage: perfgate <command>"},
		{"help", []string{"help"}, 0, "", "Run 'perfgate <command> --help'"},
		{"--help", []string{"--help"}, 0, "", "commands:"},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
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
	stderr := func() string { _, s, _ := invoke(t, nil, "help"); return s }()
	for name := range commands {
		if !slices.ContainsFunc(strings.Split(stderr, "\n"), func(l string) bool { return strings.HasPrefix(l, "  "+name+" ") }) {
			t.Errorf("the command list does not name %s", name)
		}
	}
}
