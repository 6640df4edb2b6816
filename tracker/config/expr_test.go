package config

import (
	"strings"
	"testing"
)

func TestExprEval(t *testing.T) {
	vars := map[string]float64{"n": 1000, "tile": 16, "k": 3}
	tests := []struct {
		src  string
		want float64
	}{
		{"1", 1},
		{"n", 1000},
		{"n * 4 + 2", 4002},
		{"2 + n * 4", 4002},
		{"(2 + n) * 4", 4008},
		{"n / 8", 125},
		{"n / 3", 1000.0 / 3},
		{"n % 256", 1000 % 256},
		{"-n + 1", -999},
		{"--n", 1000},
		{"cdiv(n, 256)", 4},
		{"cdiv(1024, 256)", 4},
		{"min(n, 512) + max(k, 7)", 519},
		{"floor(n / 3)", 333},
		{"ceil(n / 3)", 334},
		{"1e6", 1e6},
		{"2.5e-1 * 4", 1},
		{"3 * n * n * k", 3 * 1000 * 1000 * 3},
		{" n\t- k - 1 ", 996}, // left-associative
		{"n / tile / 2", 31.25},
		{"cdiv(n, tile) * tile", 1008},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Eval(vars)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExprErrors(t *testing.T) {
	vars := map[string]float64{"n": 10}
	tests := []struct {
		src, parseErr, evalErr string
	}{
		{src: "", parseErr: "column 1: unexpected \"end of expression\""},
		{src: "n +", parseErr: "column 4: unexpected"},
		{src: "(n", parseErr: "expected \")\""},
		{src: "n)", parseErr: "column 2: unexpected \")\""},
		{src: "pow(n, 2)", parseErr: "unknown function \"pow\""},
		{src: "cdiv(n)", parseErr: "cdiv takes 2 argument(s), got 1"},
		{src: "n ^ 2", parseErr: "unexpected \"^\""},
		{src: "1.2.3", parseErr: "column 4: unexpected \".3\""},
		{src: "os.Exit(1)", parseErr: "unexpected \".\""},
		{src: "m * 2", evalErr: "unknown parameter \"m\""},
		{src: "n / (n - 10)", evalErr: "division by zero"},
		{src: "n % 0", evalErr: "modulo by zero"},
		{src: "cdiv(n, 0)", evalErr: "cdiv by zero"},
		{src: "1e308 * 1e308", evalErr: "not a finite number"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr(tt.src)
			if tt.parseErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.parseErr) {
					t.Fatalf("parse error = %v, want it to contain %q", err, tt.parseErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Eval(vars)
			if err == nil || !strings.Contains(err.Error(), tt.evalErr) {
				t.Fatalf("eval error = %v, want it to contain %q", err, tt.evalErr)
			}
		})
	}
}

func TestExprEvalInt(t *testing.T) {
	vars := map[string]float64{"n": 1000}
	tests := []struct {
		src     string
		want    int64
		wantErr string
	}{
		{src: "cdiv(n, 256)", want: 4},
		{src: "n / 256", wantErr: "3.90625 is not a whole number"},
		{src: "n * 1e9", wantErr: "outside [0, 4294967295]"},
		{src: "-n", wantErr: "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.EvalInt(vars, 0, 1<<32-1)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

func TestExprNames(t *testing.T) {
	e, err := ParseExpr("cdiv(n, tile) * tile + m")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Names(), ","); got != "m,n,tile" {
		t.Errorf("Names() = %s", got)
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"cdiv(n, 256)", "(n+1)*2 - -3 % 4", "min(max(n, 1), 2e3)", "((((", "1e+", "n/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			return
		}
		_, _ = e.Eval(map[string]float64{"n": 7})
		_ = e.Names()
	})
}

// TestExprDepthAndLength: a run of unary minus signs counts toward the
// nesting limit as parentheses do, and an expression's length is bounded
// (issue 28, item 5: 300 minus signs were accepted where 300 parentheses
// were refused, and ten million overflowed the stack; a long chain of
// "+" evaluates as deeply).
func TestExprDepthAndLength(t *testing.T) {
	tests := []struct {
		src     string
		wantErr string
	}{
		{strings.Repeat("-", 50) + "n", ""},
		{strings.Repeat("(", 50) + "n" + strings.Repeat(")", 50), ""},
		{strings.Repeat("-", 300) + "n", "nested too deeply"},
		{strings.Repeat("(", 300) + "n" + strings.Repeat(")", 300), "nested too deeply"},
		{strings.Repeat("-(", 60) + "n" + strings.Repeat(")", 60), "nested too deeply"},
		{strings.Repeat("-", 10_000_000) + "n", "at most 1024"},
		{strings.Repeat("n+", 100_000) + "n", "at most 1024"},
	}
	for _, tt := range tests {
		name := tt.src
		if len(name) > 20 {
			name = name[:20] + "…"
		}
		t.Run(name, func(t *testing.T) {
			e, err := ParseExpr(tt.src)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.Eval(map[string]float64{"n": 2}); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseExpr: %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}
