//! The interactive mode's presentation: its default key bindings and
//! theme. The frontend owns the actions and the widgets; the product
//! decides which keys run them and how each role looks, and a user's
//! smith.kdl (tui { keys { … } theme { … } }) overrides both.

/// KEYS binds each action of the interactive mode to its default keys.
pub(crate) const KEYS: &[(&str, &[&str])] = &[
    ("submit", &["enter"]),
    ("follow-up", &["tab"]),
    ("abort", &["esc"]),
    ("quit", &["ctrl+c"]),
    ("page-up", &["pgup"]),
    ("page-down", &["pgdown"]),
    ("scroll-up", &["shift+up", "ctrl+up"]),
    ("scroll-down", &["shift+down", "ctrl+down"]),
    ("scroll-to-end", &["ctrl+end"]),
    ("scroll-to-start", &["ctrl+home"]),
    ("expand", &["ctrl+o"]),
    ("search", &["ctrl+f"]),
    ("copy-last", &["ctrl+y"]),
    ("redraw", &["ctrl+l"]),
    ("complete", &["tab"]),
    ("pick-model", &["ctrl+t"]),
];

/// THEME styles the roles of the interactive mode. Colours are the
/// terminal's palette (0-15), so the user's terminal theme shows through.
pub(crate) const THEME: &[(&str, &str)] = &[
    ("user", "bold"),
    ("user-mark", "cyan bold"),
    ("thinking", "dim italic"),
    ("thinking-head", "dim"),
    ("tool-name", "magenta bold"),
    ("tool-ok", "green"),
    ("tool-error", "red"),
    ("tool-output", "dim"),
    ("diff-add", "green"),
    ("diff-del", "red"),
    ("diff-hunk", "cyan"),
    ("notice", "dim"),
    ("warning", "yellow"),
    ("error", "red bold"),
    ("dim", "dim"),
    ("accent", "cyan"),
    ("status", "dim"),
    ("status-accent", "cyan"),
    ("border", "dim"),
    ("selection", "reverse"),
    ("queued", "yellow dim"),
];

/// STATUS_LEFT and STATUS_RIGHT are the status line's segments: the
/// activity (spinner, elapsed time, flash messages) on the left; the
/// model, its thinking level, the context used and the cost on the right.
pub(crate) const STATUS_LEFT: &[&str] = &["activity"];
pub(crate) const STATUS_RIGHT: &[&str] = &["model", "thinking", "context", "cost"];

/// PROMPT is the mark before the input; PLACEHOLDER the empty box's text.
pub(crate) const PROMPT: &str = "› ";
pub(crate) const PLACEHOLDER: &str = "Ask Smith to do something — / for commands, ctrl+c twice to quit";
