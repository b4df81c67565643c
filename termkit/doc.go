// Package termkit is a terminal kit for fullscreen text user interfaces:
// terminal control with guaranteed restoration, an input decoder, a cell
// buffer with grapheme-correct widths, a diff renderer, golden-frame test
// helpers and a set of widgets. It holds no application types and may be
// used by any TUI.
//
// The root package holds only this overview; the work is done by its
// sub-packages:
//
//   - [github.com/smith-agent/smith/termkit/term]: raw mode, alternate
//     screen, bracketed paste, focus, mouse, the kitty keyboard protocol,
//     synchronized output, window size, capability probing with a hard
//     deadline, and restoration of the prior state on every exit path.
//   - [github.com/smith-agent/smith/termkit/input]: a streaming decoder from
//     terminal bytes to key, paste, mouse, focus and reply events.
//   - [github.com/smith-agent/smith/termkit/screen]: the cell buffer, text
//     sanitizing and measuring, and the diff renderer.
//   - [github.com/smith-agent/smith/termkit/termtest]: an in-memory screen
//     emulator and golden-frame comparison (`-update` refreshes).
//   - [github.com/smith-agent/smith/termkit/widget]: scroll view, input
//     editor, status line and selector list.
//   - [github.com/smith-agent/smith/termkit/markdown]: a markdown view on
//     goldmark with chroma highlighting.
//
// # Getting Started
//
//	t, err := term.Open(term.Options{})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	r := screen.NewRenderer(t.Caps().RendererOptions())
//	buf := screen.NewBuffer(t.Size())
//	buf.SetString(0, 0, "hello", screen.Style{Attr: screen.Bold})
//	r.Render(buf)
//	r.Flush(t)
package termkit
