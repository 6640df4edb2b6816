package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// An Expr is a parsed arithmetic expression over the sweep parameters: numbers,
// parameter names, + - * / %, unary minus, parentheses and the functions
// cdiv(a, b) (integer ceiling division), min, max, floor and ceil. There is no
// other syntax and nothing is executed: it is safe on untrusted input.
type Expr struct {
	src  string
	root node
}

// MaxExprLen bounds an expression's length in bytes; MaxExprDepth its
// nesting: parentheses, calls and unary minus signs together. The config
// comes from the pull request, and parsing and evaluating recurse: ten
// million minus signs overflowed the stack (1.1 GB), and a long chain of
// "+" evaluates as deeply.
const (
	MaxExprLen   = 1024
	MaxExprDepth = 100
)

// ParseExpr parses s. The error names the column of the problem.
func ParseExpr(s string) (*Expr, error) {
	if len(s) > MaxExprLen {
		return nil, fmt.Errorf("expression of %d bytes: at most %d", len(s), MaxExprLen)
	}
	p := &parser{src: s}
	p.next()
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, p.errorf("unexpected %q", p.tok.text)
	}
	return &Expr{src: s, root: n}, nil
}

// String returns the source text.
func (e *Expr) String() string { return e.src }

// Names returns the parameter names the expression uses, sorted.
func (e *Expr) Names() []string {
	set := map[string]bool{}
	e.root.names(set)
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Eval evaluates the expression with the given parameter values.
func (e *Expr) Eval(vars map[string]float64) (float64, error) {
	v, err := e.root.eval(vars)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", e.src, err)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s: result is not a finite number", e.src)
	}
	return v, nil
}

// EvalInt evaluates the expression and requires a whole number in [lo, hi].
func (e *Expr) EvalInt(vars map[string]float64, lo, hi int64) (int64, error) {
	v, err := e.Eval(vars)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s = %g is not a whole number (use cdiv(a, b) for a rounded-up quotient)", e.src, v)
	}
	if v < float64(lo) || v > float64(hi) {
		return 0, fmt.Errorf("%s = %g is outside [%d, %d]", e.src, v, lo, hi)
	}
	return int64(v), nil
}

type node interface {
	eval(vars map[string]float64) (float64, error)
	names(set map[string]bool)
}

type num float64

func (n num) eval(map[string]float64) (float64, error) { return float64(n), nil }
func (n num) names(map[string]bool)                    {}

type ident string

func (n ident) eval(vars map[string]float64) (float64, error) {
	v, ok := vars[string(n)]
	if !ok {
		return 0, fmt.Errorf("unknown parameter %q", string(n))
	}
	return v, nil
}
func (n ident) names(set map[string]bool) { set[string(n)] = true }

type unary struct{ x node }

func (n unary) eval(vars map[string]float64) (float64, error) {
	v, err := n.x.eval(vars)
	return -v, err
}
func (n unary) names(set map[string]bool) { n.x.names(set) }

type binary struct {
	op   byte
	l, r node
}

func (n binary) names(set map[string]bool) { n.l.names(set); n.r.names(set) }

func (n binary) eval(vars map[string]float64) (float64, error) {
	a, err := n.l.eval(vars)
	if err != nil {
		return 0, err
	}
	b, err := n.r.eval(vars)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case '+':
		return a + b, nil
	case '-':
		return a - b, nil
	case '*':
		return a * b, nil
	case '/':
		if b == 0 {
			return 0, fmt.Errorf("division by zero")
		}
		return a / b, nil
	default: // '%'
		if b == 0 {
			return 0, fmt.Errorf("modulo by zero")
		}
		return math.Mod(a, b), nil
	}
}

type call struct {
	fn   string
	args []node
}

func (n call) names(set map[string]bool) {
	for _, a := range n.args {
		a.names(set)
	}
}

func (n call) eval(vars map[string]float64) (float64, error) {
	v := make([]float64, len(n.args))
	for i, a := range n.args {
		x, err := a.eval(vars)
		if err != nil {
			return 0, err
		}
		v[i] = x
	}
	switch n.fn {
	case "cdiv":
		if v[1] == 0 {
			return 0, fmt.Errorf("cdiv by zero")
		}
		return math.Ceil(v[0] / v[1]), nil
	case "min":
		return math.Min(v[0], v[1]), nil
	case "max":
		return math.Max(v[0], v[1]), nil
	case "floor":
		return math.Floor(v[0]), nil
	default: // "ceil"
		return math.Ceil(v[0]), nil
	}
}

// arity lists the functions and how many arguments each takes.
var arity = map[string]int{"cdiv": 2, "min": 2, "max": 2, "floor": 1, "ceil": 1}

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tOp
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// parser is a recursive-descent parser:
//
//	expr   = term { ("+"|"-") term }
//	term   = factor { ("*"|"/"|"%") factor }
//	factor = "-" factor | number | name | name "(" expr {"," expr} ")" | "(" expr ")"
type parser struct {
	src   string
	pos   int
	tok   token
	depth int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("column %d: %s", p.tok.pos+1, fmt.Sprintf(format, args...))
}

func (p *parser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{tEOF, "end of expression", start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		p.pos = scanNumber(p.src, p.pos)
		p.tok = token{tNum, p.src[start:p.pos], start}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
			p.pos++
		}
		p.tok = token{tIdent, p.src[start:p.pos], start}
	default:
		p.pos++
		p.tok = token{tOp, string(c), start}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// scanNumber returns the end of the number starting at i: digits, an optional
// fraction and an optional exponent (1e6, 2.5E-3).
func scanNumber(s string, i int) int {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i = digits(i)
	if i < len(s) && s[i] == '.' {
		i = digits(i + 1)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := digits(j); k > j {
			i = k
		}
	}
	return i
}

func (p *parser) expr() (node, error) {
	if err := p.nest(); err != nil {
		return nil, err
	}
	defer p.unnest()
	l, err := p.term()
	for err == nil && p.tok.kind == tOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok.text[0]
		p.next()
		var r node
		r, err = p.term()
		l = binary{op, l, r}
	}
	return l, err
}

// nest enters one level of nesting, refusing more than MaxExprDepth;
// unnest leaves it.
func (p *parser) nest() error {
	if p.depth++; p.depth > MaxExprDepth {
		return p.errorf("expression nested too deeply (at most %d parentheses, calls and minus signs)", MaxExprDepth)
	}
	return nil
}

func (p *parser) unnest() { p.depth-- }

func (p *parser) term() (node, error) {
	l, err := p.factor()
	for err == nil && p.tok.kind == tOp && strings.Contains("*/%", p.tok.text) {
		op := p.tok.text[0]
		p.next()
		var r node
		r, err = p.factor()
		l = binary{op, l, r}
	}
	return l, err
}

func (p *parser) factor() (node, error) {
	t := p.tok
	switch {
	case t.kind == tOp && t.text == "-":
		if err := p.nest(); err != nil {
			return nil, err
		}
		defer p.unnest()
		p.next()
		x, err := p.factor()
		return unary{x}, err
	case t.kind == tOp && t.text == "(":
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.tok.text != ")" {
			return nil, p.errorf("expected \")\", got %q", p.tok.text)
		}
		p.next()
		return x, nil
	case t.kind == tNum:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, p.errorf("bad number %q", t.text)
		}
		p.next()
		return num(v), nil
	case t.kind == tIdent:
		p.next()
		if p.tok.text != "(" {
			return ident(t.text), nil
		}
		return p.call(t)
	}
	return nil, p.errorf("unexpected %q", t.text)
}

func (p *parser) call(name token) (node, error) {
	want, ok := arity[name.text]
	if !ok {
		return nil, fmt.Errorf("column %d: unknown function %q (have cdiv, min, max, floor, ceil)", name.pos+1, name.text)
	}
	p.next() // "("
	var args []node
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.tok.text != "," {
			break
		}
		p.next()
	}
	if p.tok.text != ")" {
		return nil, p.errorf("expected \")\" or \",\", got %q", p.tok.text)
	}
	p.next()
	if len(args) != want {
		return nil, fmt.Errorf("column %d: %s takes %d argument(s), got %d", name.pos+1, name.text, want, len(args))
	}
	return call{name.text, args}, nil
}
