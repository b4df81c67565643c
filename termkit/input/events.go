package input

import "time"

// EscTimeout is how long a lone ESC or an incomplete sequence is held
// before the caller should call [Decoder.Flush].
const EscTimeout = 25 * time.Millisecond

// Event is one decoded input event: [Key], [Paste], [Mouse], [Focus],
// [Resize], a reply ([ModeReport], [KittyFlags], [PrimaryAttrs],
// [CursorPos], [ColorReport], [TermVersion]) or [Unknown]. The set is
// sealed.
type Event interface{ event() }

// Paste is one bracketed paste, whole. Text is the pasted bytes with
// invalid UTF-8 dropped; line endings and control characters are left as
// sent, for the receiver to normalise.
type Paste struct{ Text string }

// MouseButton is the button of a [Mouse] event.
type MouseButton uint8

// The mouse buttons. ButtonNone is reported for motion with no button held
// and for legacy (X10) releases, which do not say which button was let go.
const (
	ButtonNone MouseButton = iota
	ButtonLeft
	ButtonMiddle
	ButtonRight
	WheelUp
	WheelDown
	WheelLeft
	WheelRight
)

// MouseAction is what a [Mouse] event reports. Wheel steps are presses.
type MouseAction uint8

// The mouse actions.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseMotion
)

// Mouse is a mouse report. X and Y are 0-based cells; Mod holds shift,
// alt and ctrl as the terminal reported them.
type Mouse struct {
	X, Y   int
	Button MouseButton
	Action MouseAction
	Mod    Mod
}

// Focus reports that the terminal gained (In) or lost focus (mode 1004).
type Focus struct{ In bool }

// Resize is a new window size in cells. It is produced by termkit/term on
// SIGWINCH, never by the decoder.
type Resize struct{ Width, Height int }

// ModeReport is a DECRPM reply, CSI ? Ps ; Pm $ y: Value 0 not recognised,
// 1 set, 2 reset, 3 permanently set, 4 permanently reset.
type ModeReport struct{ Mode, Value int }

// KittyFlags is the reply to the kitty keyboard query, CSI ? flags u.
type KittyFlags struct{ Flags int }

// PrimaryAttrs is a DA1 reply, CSI ? Ps ; … c. Empty parameters are 0.
type PrimaryAttrs struct{ Params []int }

// CursorPos is a cursor position report, CSI row ; col R, 1-based as sent.
type CursorPos struct{ Row, Col int }

// ColorReport is the reply to OSC 10 (foreground), 11 (background) or 12
// (cursor colour) queries: OSC Slot ; rgb:RRRR/GGGG/BBBB. Channels are
// scaled to 16 bits whatever digit count the terminal sent.
type ColorReport struct {
	Slot    int
	R, G, B uint16
}

// TermVersion is an XTVERSION reply, DCS > | text ST, such as "kitty(0.40.1)".
// Control characters in Text are replaced by visible pictures.
type TermVersion struct{ Text string }

// Unknown is a complete sequence the decoder does not understand, or one
// given up after [MaxSequence] bytes. Seq is sanitized for display: ESC is
// written "␛", other controls as their Unicode control pictures, and
// invalid UTF-8 bytes as \xNN.
type Unknown struct{ Seq string }

func (Key) event()          {}
func (Paste) event()        {}
func (Mouse) event()        {}
func (Focus) event()        {}
func (Resize) event()       {}
func (ModeReport) event()   {}
func (KittyFlags) event()   {}
func (PrimaryAttrs) event() {}
func (CursorPos) event()    {}
func (ColorReport) event()  {}
func (TermVersion) event()  {}
func (Unknown) event()      {}
