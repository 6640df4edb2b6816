package memlimit

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestFor(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name  string
		input int64
		want  int64
	}{
		{"empty", 0, 0},
		{"small input, no limit", 3 * mib, 0},
		{"record of 10k x 100 (8.1 MB): out of reach, no limit", 8_069_909, 0},
		{"15 MiB: 2x, the least limit", 15 * mib, 30 * mib},
		{"compare of 10k x 100 (16.3 MB): 3x less the process", 16_282_721, 3*16_282_721 - 15*mib},
		{"1 GiB of results", 1 << 30, 3<<30 - 15*mib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := For(tc.input); got != tc.want {
				t.Errorf("For(%d) = %d, want %d", tc.input, got, tc.want)
			}
		})
	}
}

func TestForStream(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name  string
		input int64
		want  int64
	}{
		{"empty: the floor", 0, 10 * mib},
		{"record of 10k x 100 (8.1 MB): the floor", 8_069_909, 10 * mib},
		{"record of 10k x 1,300 (93 MB): 3x less the process", 93_400_000, 3*93_400_000 - 15*mib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ForStream(tc.input); got != tc.want {
				t.Errorf("ForStream(%d) = %d, want %d", tc.input, got, tc.want)
			}
		})
	}
}

func TestLimiter(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	env := func(v string) func(string) string { return func(string) string { return v } }
	l := New(env(""))
	l.Set(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != For(1<<30) {
		t.Errorf("limit after Set = %d, want %d", got, For(1<<30))
	}
	l.Set(2 << 30) // a check that has read its baseline
	if got := debug.SetMemoryLimit(-1); got != For(2<<30) {
		t.Errorf("limit after a second Set = %d, want %d", got, For(2<<30))
	}
	l.Restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after Restore = %d, want %d", got, before)
	}
	l.SetStream(0) // a record of a small file into the embedded store
	if got := debug.SetMemoryLimit(-1); got != ForStream(0) {
		t.Errorf("limit after SetStream = %d, want %d", got, ForStream(0))
	}
	l.Restore()
	l = New(env("64MiB")) // GOMEMLIMIT wins: nothing set
	l.Set(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit with GOMEMLIMIT set = %d, want %d", got, before)
	}
	l.Restore()
}

func TestFileBytes(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, make([]byte, 10), 0o644)
	os.WriteFile(b, make([]byte, 5), 0o644)
	if got := FileBytes([]string{a, b, filepath.Join(dir, "missing")}); got != 15 {
		t.Errorf("FileBytes = %d, want 15", got)
	}
}

// TestAddProcess: a command on the Postgres store leaves its larger own
// pages out of the heap's limit, and the GOMEMLIMIT environment variable
// still wins.
func TestAddProcess(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	const input = 100 << 20
	l := New(func(string) string { return "" })
	l.AddProcess(PostgresRSS)
	l.Set(input)
	if got, want := debug.SetMemoryLimit(-1), int64(3*input-15<<20-PostgresRSS); got != want {
		t.Errorf("limit on Postgres = %d, want %d (%d less than For)", got, want, For(input)-want)
	}
	l.Restore()
	l = New(func(string) string { return "90MiB" })
	l.AddProcess(PostgresRSS)
	l.Set(input)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set the limit moved to %d", got)
	}
}
