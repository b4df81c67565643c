//! Incremental Server-Sent Events framer for provider response bodies: the
//! Rust port of the Go package beside this file (framer.go), which stays
//! the oracle (FuzzRustFramer compares the two on arbitrary bodies split
//! at arbitrary points).
//!
//! The body arrives in arbitrary byte chunks — split anywhere, including
//! between CR and LF or inside a UTF-8 sequence. The framer reports each
//! dispatched event, each line that is not SSE at all (Gemini appends a
//! bare JSON error object to a 200 stream), and framing facts (line
//! endings, comment lines, the [DONE] sentinel). Two deliberate deviations
//! from the WHATWG parser: a body that ends without a final blank line
//! still dispatches its last event, and a line whose field name is not
//! event, data, id or retry is reported as non-SSE text.
//!
//! ```ignore
//! let mut f = sse::Framer::default();
//! for chunk in body {
//!     f.feed(chunk, |it| handle(it));
//! }
//! f.close(|it| handle(it));
//! let stats = f.stats();
//! ```

/// Kind tells what an [`Item`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A dispatched SSE event.
    Event,
    /// One line that is neither an SSE field, a comment nor blank (without
    /// its line ending).
    Text,
}

/// Item is what the framer reports. Its slices borrow the framer's buffers
/// or the chunk being fed, so they live only for the callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item<'a> {
    pub kind: Kind,
    /// The event's "event:" value, empty when none was given.
    pub name: &'a [u8],
    /// The event's data lines joined by LF, or the text line.
    pub data: &'a [u8],
    /// Data is the "[DONE]" sentinel; such events are still delivered.
    pub done: bool,
}

/// LineEndings is the line-ending style seen in a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEndings {
    None,
    Lf,
    CrLf,
    Cr,
    Mixed,
}

impl LineEndings {
    /// as_str is the Go package's name for the style ("" for none).
    pub fn as_str(self) -> &'static str {
        match self {
            LineEndings::None => "",
            LineEndings::Lf => "LF",
            LineEndings::CrLf => "CRLF",
            LineEndings::Cr => "CR",
            LineEndings::Mixed => "mixed",
        }
    }
}

/// Stats are the framing facts of the body fed so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub line_endings: LineEndings,
    /// An "event:" field was seen.
    pub event_lines: bool,
    /// Dispatched events, the [DONE] sentinel excluded.
    pub events: u64,
    pub comment_lines: u64,
    /// A "data: [DONE]" event was seen.
    pub done: bool,
    /// At least one non-SSE text line was seen.
    pub non_sse: bool,
    pub bytes: u64,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            line_endings: LineEndings::None,
            event_lines: false,
            events: 0,
            comment_lines: 0,
            done: false,
            non_sse: false,
            bytes: 0,
        }
    }
}

/// Framer splits a byte stream into SSE items. `Framer::default()` is
/// ready. Its buffers grow to the longest line and the largest event seen
/// and are reused, so feeding allocates nothing once they are warm.
#[derive(Debug, Default)]
pub struct Framer {
    /// Partial line carried over between chunks.
    line: Vec<u8>,
    /// The last byte fed was CR: a following LF belongs to it.
    pending_cr: bool,
    name: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    closed: bool,
    stats: Stats,
}

const DONE_SENTINEL: &[u8] = b"[DONE]";

impl Framer {
    /// stats returns the framing facts so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// feed consumes chunk and calls emit for every complete item in it.
    pub fn feed<F: FnMut(Item)>(&mut self, chunk: &[u8], mut emit: F) {
        self.stats.bytes = self.stats.bytes.wrapping_add(chunk.len() as u64);
        let mut chunk = chunk;
        // lf is the index in chunk of the next LF, searched for once and
        // not again for every CR-ended line before it.
        let mut lf = index_byte(chunk, b'\n');
        while !chunk.is_empty() {
            if self.pending_cr {
                self.pending_cr = false;
                if chunk[0] == b'\n' {
                    self.ending(LineEndings::CrLf);
                    let (rest, next) = skip_lf(chunk, lf, 1);
                    chunk = rest;
                    lf = next;
                    continue;
                }
                self.ending(LineEndings::Cr);
            }
            let head = match lf {
                Some(n) => &chunk[..n],
                None => chunk,
            };
            let i = match index_byte(head, b'\r').or(lf) {
                Some(i) => i,
                None => {
                    self.line.extend_from_slice(chunk);
                    return;
                }
            };
            if chunk[i] == b'\r' {
                self.pending_cr = true;
            } else {
                self.ending(LineEndings::Lf);
            }
            let (rest, next) = skip_lf(chunk, lf, i + 1);
            if self.line.is_empty() {
                self.process_line(&chunk[..i], &mut emit);
            } else {
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&chunk[..i]);
                self.process_line(&line, &mut emit);
                line.clear();
                self.line = line;
            }
            chunk = rest;
            lf = next;
        }
    }

    /// close ends the body: a pending partial line is processed and an
    /// event whose data was not yet dispatched (no final blank line) is
    /// dispatched. A second close does nothing; feed must not be called
    /// after close (it is not refused, as in Go).
    pub fn close<F: FnMut(Item)>(&mut self, mut emit: F) {
        if self.closed {
            return;
        }
        self.closed = true;
        if self.pending_cr {
            self.pending_cr = false;
            self.ending(LineEndings::Cr);
        }
        if !self.line.is_empty() {
            let mut line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut emit);
            line.clear();
            self.line = line;
        }
        self.dispatch(&mut emit);
    }

    fn ending(&mut self, e: LineEndings) {
        let cur = self.stats.line_endings;
        if cur == LineEndings::None {
            self.stats.line_endings = e;
        } else if cur != e && cur != LineEndings::Mixed {
            self.stats.line_endings = LineEndings::Mixed;
        }
    }

    fn process_line<F: FnMut(Item)>(&mut self, line: &[u8], emit: &mut F) {
        if line.is_empty() {
            self.dispatch(emit);
            return;
        }
        if line[0] == b':' {
            self.stats.comment_lines += 1;
            return;
        }
        let (field, value) = match index_byte(line, b':') {
            Some(c) => {
                let v = &line[c + 1..];
                (&line[..c], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => {
                self.name.clear();
                self.name.extend_from_slice(value);
                self.stats.event_lines = true;
            }
            // Accepted and unused: provider streams are not resumed.
            b"id" | b"retry" => {}
            _ => {
                self.stats.non_sse = true;
                emit(Item {
                    kind: Kind::Text,
                    name: &[],
                    data: line,
                    done: false,
                });
            }
        }
    }

    fn dispatch<F: FnMut(Item)>(&mut self, emit: &mut F) {
        if !self.has_data {
            self.name.clear();
            return;
        }
        let done = self.data == DONE_SENTINEL;
        if done {
            self.stats.done = true;
        } else {
            self.stats.events += 1;
        }
        emit(Item {
            kind: Kind::Event,
            name: &self.name,
            data: &self.data,
            done,
        });
        self.name.clear();
        self.data.clear();
        self.has_data = false;
    }
}

/// skip_lf drops the first n bytes of chunk and returns the rest with the
/// index of its next LF, given lf, that of chunk: only when that LF itself
/// is dropped is the rest searched.
fn skip_lf(chunk: &[u8], lf: Option<usize>, n: usize) -> (&[u8], Option<usize>) {
    let rest = &chunk[n..];
    match lf {
        None => (rest, None),
        Some(l) if l >= n => (rest, Some(l - n)),
        Some(_) => (rest, index_byte(rest, b'\n')),
    }
}

/// index_byte is the index of the first b in s. It tests 16 bytes per
/// step, 8 to a word (a byte-at-a-time search framed 4x slower than Go's
/// assembly bytes.IndexByte): in x ^ b·0x01…01 a zero byte marks a match,
/// and (w - 0x01…01) & !w & 0x80…80 sets the top bit of the lowest zero
/// byte of w (bits above it may be false positives, which the lowest-set-bit
/// reading ignores).
fn index_byte(s: &[u8], b: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pat = LO.wrapping_mul(b as u64);
    let zero = |w: u64| w.wrapping_sub(LO) & !w & HI;
    let mut i = 0;
    let mut blocks = s.chunks_exact(16);
    for block in &mut blocks {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&block[..8]);
        hi.copy_from_slice(&block[8..]);
        let zl = zero(u64::from_le_bytes(lo) ^ pat);
        let zh = zero(u64::from_le_bytes(hi) ^ pat);
        if zl != 0 {
            return Some(i + (zl.trailing_zeros() / 8) as usize);
        }
        if zh != 0 {
            return Some(i + 8 + (zh.trailing_zeros() / 8) as usize);
        }
        i += 16;
    }
    blocks.remainder().iter().position(|&c| c == b).map(|j| i + j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Got {
        kind: Kind,
        name: Vec<u8>,
        data: Vec<u8>,
        done: bool,
    }

    fn ev(name: &str, data: &str, done: bool) -> Got {
        Got {
            kind: Kind::Event,
            name: name.as_bytes().to_vec(),
            data: data.as_bytes().to_vec(),
            done,
        }
    }

    fn text(data: &str) -> Got {
        Got {
            kind: Kind::Text,
            name: Vec::new(),
            data: data.as_bytes().to_vec(),
            done: false,
        }
    }

    fn frame(chunks: &[&[u8]]) -> (Vec<Got>, Stats) {
        let mut f = Framer::default();
        let mut out = Vec::new();
        let mut emit = |it: Item| {
            out.push(Got {
                kind: it.kind,
                name: it.name.to_vec(),
                data: it.data.to_vec(),
                done: it.done,
            })
        };
        for c in chunks {
            f.feed(c, &mut emit);
        }
        f.close(&mut emit);
        (out, f.stats())
    }

    fn stats(e: LineEndings) -> Stats {
        Stats {
            line_endings: e,
            ..Stats::default()
        }
    }

    #[test]
    fn framer_table() {
        struct Case {
            name: &'static str,
            chunks: Vec<&'static [u8]>,
            want: Vec<Got>,
            stats: Stats,
        }
        let cases = vec![
            Case {
                name: "lf events with names",
                chunks: vec![b"event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n"],
                want: vec![ev("a", "{\"x\":1}", false), ev("b", "2", false)],
                stats: Stats {
                    event_lines: true,
                    events: 2,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "crlf split between cr and lf",
                chunks: vec![b"data: 1\r", b"\n\r", b"\ndata: 2\r\n\r\n"],
                want: vec![ev("", "1", false), ev("", "2", false)],
                stats: Stats {
                    events: 2,
                    ..stats(LineEndings::CrLf)
                },
            },
            Case {
                name: "bare cr separators",
                chunks: vec![b"data: 1\r\rdata: 2\r\r"],
                want: vec![ev("", "1", false), ev("", "2", false)],
                stats: Stats {
                    events: 2,
                    ..stats(LineEndings::Cr)
                },
            },
            Case {
                name: "multi-line data joins with lf, optional space only once",
                chunks: vec![b"data:a\ndata:  b\ndata\n\n"],
                want: vec![ev("", "a\n b\n", false)],
                stats: Stats {
                    events: 1,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "comments, id and retry are not data",
                chunks: vec![b": OPENROUTER PROCESSING\n\nid: 7\nretry: 10\ndata: x\n\n:\n"],
                want: vec![ev("", "x", false)],
                stats: Stats {
                    events: 1,
                    comment_lines: 2,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "done sentinel is reported and not counted",
                chunks: vec![b"data: {}\n\ndata: [DONE]\n\n"],
                want: vec![ev("", "{}", false), ev("", "[DONE]", true)],
                stats: Stats {
                    events: 1,
                    done: true,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "body ends without a blank line",
                chunks: vec![b"data: 1\n\ndata: 2"],
                want: vec![ev("", "1", false), ev("", "2", false)],
                stats: Stats {
                    events: 2,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "event name without data dispatches nothing",
                chunks: vec![b"event: ping\n\ndata: 1\n\n"],
                want: vec![ev("", "1", false)],
                stats: Stats {
                    event_lines: true,
                    events: 1,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "bare json after the events is non-sse text",
                chunks: vec![b"data: {}\r\n\r\n{\n  \"error\": {\n    \"code\": 500\n  }\n}\n"],
                want: vec![
                    ev("", "{}", false),
                    text("{"),
                    text("  \"error\": {"),
                    text("    \"code\": 500"),
                    text("  }"),
                    text("}"),
                ],
                stats: Stats {
                    events: 1,
                    non_sse: true,
                    ..stats(LineEndings::Mixed)
                },
            },
            Case {
                name: "utf-8 split inside a sequence",
                chunks: vec![b"data: Ol\xc3", b"\xa1!\n\n"],
                want: vec![ev("", "Ol\u{e1}!", false)],
                stats: Stats {
                    events: 1,
                    ..stats(LineEndings::Lf)
                },
            },
            Case {
                name: "trailing cr at close is a cr ending",
                chunks: vec![b"data: 1\n", b"x\r"],
                want: vec![text("x"), ev("", "1", false)],
                stats: Stats {
                    events: 1,
                    non_sse: true,
                    ..stats(LineEndings::Mixed)
                },
            },
            Case {
                name: "empty body",
                chunks: vec![b"", b""],
                want: vec![],
                stats: stats(LineEndings::None),
            },
        ];
        for c in cases {
            let (items, mut st) = frame(&c.chunks);
            assert_eq!(items, c.want, "{}: items", c.name);
            let total: usize = c.chunks.iter().map(|c| c.len()).sum();
            assert_eq!(st.bytes, total as u64, "{}: bytes", c.name);
            st.bytes = 0;
            assert_eq!(st, c.stats, "{}: stats", c.name);
            // The same body one byte at a time gives the same result.
            let whole: Vec<u8> = c.chunks.concat();
            let singles: Vec<&[u8]> = whole.chunks(1).collect();
            let (items1, mut st1) = frame(&singles);
            st1.bytes = 0;
            assert_eq!(items1, c.want, "{}: byte-at-a-time items", c.name);
            assert_eq!(st1, c.stats, "{}: byte-at-a-time stats", c.name);
        }
    }

    #[test]
    fn close_twice_emits_once() {
        let mut f = Framer::default();
        let mut n = 0;
        f.feed(b"data: 1", |_| n += 1);
        f.close(|_| n += 1);
        f.close(|_| n += 1);
        assert_eq!(n, 1);
    }

    #[test]
    fn buffers_are_reused() {
        let body: &[u8] = b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0}\n\n";
        let mut f = Framer::default();
        // Split mid-line so the carried-over line buffer is used too.
        f.feed(&body[..40], |_| {});
        f.feed(&body[40..], |_| {});
        let caps = (f.line.capacity(), f.name.capacity(), f.data.capacity());
        for _ in 0..100 {
            f.feed(&body[..40], |_| {});
            f.feed(&body[40..], |_| {});
        }
        assert_eq!(
            (f.line.capacity(), f.name.capacity(), f.data.capacity()),
            caps
        );
        assert_eq!(f.stats().events, 101);
    }

    #[test]
    fn index_byte_finds_the_first() {
        let mut s = vec![b'a'; 70];
        assert_eq!(index_byte(&s, b'\n'), None);
        assert_eq!(index_byte(&[], b'\n'), None);
        for at in 0..70 {
            for later in at..70 {
                let mut t = s.clone();
                t[later] = b'\n';
                t[at] = b'\n';
                assert_eq!(index_byte(&t, b'\n'), Some(at), "at {} later {}", at, later);
            }
        }
        // A byte just above the one searched for is no match (borrows).
        s[3] = b'\n' + 1;
        s[9] = 0x80 | b'\n';
        assert_eq!(index_byte(&s, b'\n'), None);
        s[20] = b'\n';
        assert_eq!(index_byte(&s, b'\n'), Some(20));
    }

    #[test]
    fn line_endings_names() {
        let names: Vec<&str> = [
            LineEndings::None,
            LineEndings::Lf,
            LineEndings::CrLf,
            LineEndings::Cr,
            LineEndings::Mixed,
        ]
        .iter()
        .map(|e| e.as_str())
        .collect();
        assert_eq!(names, ["", "LF", "CRLF", "CR", "mixed"]);
    }
}
