package runner

import (
	"fmt"
	"io"
	"os"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Progress prints one line per finished benchmark; on a terminal it also
// keeps a live count on the last line.
type Progress struct {
	w   io.Writer
	tty bool
	n   int
}

// NewProgress returns a Progress writing to w.
func NewProgress(w io.Writer) *Progress {
	p := &Progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

// Line reports one finished benchmark.
func (p *Progress) Line(s string) {
	p.n++
	if !p.tty {
		fmt.Fprintln(p.w, s)
		return
	}
	fmt.Fprintf(p.w, "\r\033[K%s\n\033[1m%d benchmarks done, running…\033[0m", s, p.n)
}

// Done clears the live count.
func (p *Progress) Done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// Health says how many benchmarks failed and how many were flagged for
// samples dropped at a low SM clock, so neither hides in the file: one
// message a line, none for a clean run.
func Health(bs []model.Benchmark) []string {
	var failed, flagged int
	for _, b := range bs {
		if b.Error != "" {
			failed++
		}
		if b.Info["clock_flag"] != "" {
			flagged++
		}
	}
	var out []string
	if failed > 0 {
		out = append(out, fmt.Sprintf("perfgate: %d of %d benchmarks failed (their error is in the results)", failed, len(bs)))
	}
	if flagged > 0 {
		out = append(out, fmt.Sprintf("perfgate: %d of %d benchmarks dropped more than 5%% of their samples for a low SM clock "+
			"(info.clock_flag): the GPU was throttling or not yet boosted; see perfgate doctor", flagged, len(bs)))
	}
	return out
}
