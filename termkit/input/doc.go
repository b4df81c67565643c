// Package input decodes the bytes a terminal sends into events: keys,
// bracketed pastes, mouse reports, focus changes and the replies to
// capability queries.
//
// A [Decoder] is streaming: [Decoder.Feed] appends every event that is
// complete in the bytes fed so far and holds an incomplete tail (a
// sequence or UTF-8 rune split across reads, a lone ESC, an open paste).
// Feeding the same bytes in any chunking yields the same events. When no
// byte arrives for [EscTimeout] while [Decoder.Pending] reports a held
// tail, the caller calls [Decoder.Flush], which turns the tail into keys:
//
//	var d input.Decoder
//	var evs []input.Event
//	for {
//		n, err := tty.Read(buf) // with a read deadline of EscTimeout when d.Pending()
//		evs = d.Feed(evs[:0], buf[:n])
//		if n == 0 && d.Pending() {
//			evs = d.Flush(evs)
//		}
//		for _, ev := range evs {
//			switch ev := ev.(type) {
//			case input.Key:
//				if ev.Matches("ctrl+c") {
//					return
//				}
//			case input.Paste:
//				insert(ev.Text)
//			}
//		}
//	}
//
// # Keys
//
// Legacy bytes, xterm modifier sequences (CSI 1;5A), modifyOtherKeys
// (CSI 27;mod;code ~) and the kitty keyboard protocol (CSI code;mod:event;
// text u) all decode to [Key]. Decisions for the ambiguous legacy bytes:
//
//   - 0x7f and 0x08 are both Backspace with no modifier (some terminals
//     send 0x08 for plain Backspace, so treating it as ctrl+backspace would
//     delete words); use the kitty protocol to tell ctrl+backspace apart.
//   - 0x09 is Tab, 0x0d Enter, 0x0a ctrl+j, 0x00 ctrl+space, 0x01–0x1a
//     ctrl+a…ctrl+z, 0x1c–0x1f ctrl+\ ctrl+] ctrl+^ ctrl+_.
//   - ESC x is alt+x; ESC ESC is alt+esc, and ESC followed by a complete
//     key sequence is that key with alt (ESC ESC [ A is alt+up).
//   - CSI row;col R is always a [CursorPos] reply, so a legacy shift+F3
//     (CSI 1;2R) reads as CursorPos{1, 2}; the kitty protocol sends F3 as
//     CSI 13~ and has no such clash.
//   - Modifier bits other than shift, alt, ctrl and super (hyper, meta,
//     caps lock, num lock) are dropped; presses of modifier and lock keys
//     alone produce no event.
//   - With the kitty protocol and a non-Latin layout, a ctrl/alt/super
//     combination reports the base-layout key as Code, so ctrl+c matches
//     on a Cyrillic layout.
//
// Text keys are one [Key] per rune; Enter, Tab and Backspace carry no Text.
//
// # Flush
//
// Flush never turns a held sequence with parameters into typed text: an
// incomplete CSI, OSC, DCS, APC, PM or SOS with content becomes [Unknown];
// only the bare introducers (ESC [, ESC ], ESC O, ESC P…) become alt keys.
// An open bracketed paste is not ended by Flush: it lasts until CSI 201~.
//
// # Bounds
//
// A sequence that has not ended within [MaxSequence] bytes is given up and
// emitted as [Unknown]; the bytes after it decode normally. Pastes are not
// bounded; they are accumulated in one buffer with linear work.
//
// # Concurrency
//
// A Decoder is not safe for concurrent use; feed it from the one goroutine
// that reads the terminal. Events are values and may be passed to other
// goroutines.
package input
