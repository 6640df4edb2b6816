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
		{"no arguments", nil, 2, "", "\tperfgate <command> [flags]"},
		{"help", []string{"help"}, 0, "", `"perfgate <command> --help" lists a command's flags`},
		{"--help", []string{"--help"}, 0, "", "Commands:"},
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
	// The usage is doc.go's comment: its command list must be the
	// registered commands, no more, no fewer.
	_, list, _ := strings.Cut(stderr, "Commands:\n\n")
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
