package replay

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/textout"
)

// MaxGap caps the wait between two events under --speed real (and Nx,
// before the speed-up): 2 seconds. A session left idle for an hour
// between two prompts replays with a 2 s pause, not an hour's.
const MaxGap = 2 * time.Second

// Speed is the pace of a replay: Factor times the recorded pace, or as
// fast as possible (Factor 0, instant, the default).
type Speed struct {
	Factor float64
}

// Instant reports whether s waits for nothing.
func (s Speed) Instant() bool { return s.Factor == 0 }

// ParseSpeed parses a --speed value: "instant", "real" (the recorded
// pace, each gap capped at [MaxGap]) or "Nx" (N times faster than real,
// N a positive number such as 2x, 0.5x, 10x). The error names the value
// and the valid forms.
func ParseSpeed(s string) (Speed, error) {
	switch s {
	case "", "instant":
		return Speed{}, nil
	case "real", "1x":
		return Speed{Factor: 1}, nil
	}
	if n, ok := strings.CutSuffix(s, "x"); ok {
		f, err := strconv.ParseFloat(n, 64)
		if err == nil && f > 0 && f <= 1e6 {
			return Speed{Factor: f}, nil
		}
	}
	return Speed{}, fmt.Errorf("--speed %q is not a speed; use instant, real, or Nx such as 2x or 0.5x", s)
}

// ParseTurns parses a --turns value: "A..B" (turns A to B), "A.." (A to
// the last), "..B" (the first to B) or "A" (turn A only), turns counting
// from 1 as the user sees them (one input and the agent's work on it).
// "" is every turn (0, 0). The error names the value and the valid forms.
func ParseTurns(s string) (from, to int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	bad := fmt.Errorf("--turns %q is not a turn range; use A..B, A.. or ..B with turns counting from 1 (such as 2..4), or one turn N", s)
	a, b, ranged := strings.Cut(s, "..")
	if !ranged {
		b = a
	}
	num := func(t string) (int, bool) {
		if t == "" {
			return 0, true
		}
		n, err := strconv.Atoi(t)
		return n, err == nil && n >= 1 && t[0] != '+'
	}
	from, ok1 := num(a)
	to, ok2 := num(b)
	if !ok1 || !ok2 || (a == "" && b == "") || (to > 0 && from > to) {
		return 0, 0, bad
	}
	return from, to, nil
}

// Player writes a replay's events as they arrive, paced by Speed: as text
// (the eval renderer, each user input shown as "> " lines) or as JSON, one
// protocol.MarshalEvent line per event. It is used by one goroutine.
type Player struct {
	// Out receives the conversation (text) or the events (JSON).
	Out io.Writer
	// Diag receives notices and the tally in text mode; nil writes them
	// to Out.
	Diag io.Writer
	// JSON selects the JSON lines output.
	JSON bool
	// Speed paces the events; the zero value is instant.
	Speed Speed
	// Sleep waits d or until ctx ends; nil uses a timer. Tests pass a
	// fake.
	Sleep func(ctx context.Context, d time.Duration) error

	w    *bufio.Writer
	text *textout.Writer
	last time.Time
}

// Event paces and writes one event.
func (p *Player) Event(ctx context.Context, ev runtime.ReplayEvent) error {
	if p.w == nil {
		p.w = bufio.NewWriter(p.Out)
		p.text = &textout.Writer{W: p.w, Diag: p.Diag}
	}
	if err := p.pace(ctx, ev.At); err != nil {
		return err
	}
	if p.JSON {
		b, err := protocol.MarshalEvent(ev.Event)
		if err != nil {
			return err
		}
		if _, err := p.w.Write(append(b, '\n')); err != nil {
			return err
		}
	} else {
		if e, ok := ev.Event.(protocol.MessageEnd); ok {
			if u, ok := e.Message.(model.UserMessage); ok {
				if err := p.prompt(u); err != nil {
					return err
				}
			}
		}
		if err := p.text.Event(ev.Event); err != nil {
			return err
		}
	}
	if p.Speed.Instant() {
		return nil // flushed by Flush, at the end
	}
	return p.w.Flush()
}

// Flush writes what is buffered.
func (p *Player) Flush() error {
	if p.w == nil {
		return nil
	}
	return p.w.Flush()
}

// pace waits the recorded gap before an event at at (capped at MaxGap,
// divided by the speed factor).
func (p *Player) pace(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		return nil
	}
	prev := p.last
	p.last = at
	if p.Speed.Instant() || prev.IsZero() || !at.After(prev) {
		return nil
	}
	d := time.Duration(float64(min(at.Sub(prev), MaxGap)) / p.Speed.Factor)
	if d <= 0 {
		return nil
	}
	if err := p.w.Flush(); err != nil {
		return err
	}
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// prompt shows a user's input, each line after "> ".
func (p *Player) prompt(u model.UserMessage) error {
	var b strings.Builder
	for _, c := range u.Content {
		switch c := c.(type) {
		case model.Text:
			for _, line := range strings.Split(strings.TrimRight(c.Text, "\n"), "\n") {
				b.WriteString("> " + line + "\n")
			}
		case model.Image:
			fmt.Fprintf(&b, "> [image %s]\n", c.MediaType)
		}
	}
	_, err := p.w.WriteString(textout.Safe(b.String()))
	return err
}

// Summary is the closing line of a text replay: whether it matched, or
// how many divergences it found.
func Summary(r protocol.ReplayReport) string {
	s := fmt.Sprintf("replay of %s: turns %d..%d of %d", r.Session, r.ShownFrom, r.ShownTo, r.Turns)
	if r.Turns == 0 {
		s = fmt.Sprintf("replay of %s: the session holds no turn", r.Session)
	}
	if len(r.Unknown) > 0 {
		s += fmt.Sprintf("; %d effect(s) unknown (not run again)", len(r.Unknown))
	}
	if len(r.Skipped) > 0 {
		s += fmt.Sprintf("; %d warning(s) on what was skipped", len(r.Skipped))
	}
	if r.Matched() {
		return s + "; matched"
	}
	return s + fmt.Sprintf("; %d divergence(s)", len(r.Divergences))
}
