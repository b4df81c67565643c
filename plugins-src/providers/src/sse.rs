//! sse is the incremental Server-Sent Events framer for provider response
//! bodies.
//!
//! The body arrives in arbitrary byte chunks — split anywhere, including
//! between CR and LF or inside a UTF-8 sequence. The framer reports each
//! dispatched event (marking the [DONE] sentinel) and each line that is
//! not SSE at all (Gemini appends a bare JSON error object to a 200
//! stream). Two deliberate deviations from the WHATWG parser: a body that
//! ends without a final blank line still dispatches its last event, and a
//! line whose field name is not event, data, id or retry is reported as
//! non-SSE text.
//!
//! ```ignore
//! let mut f = sse::Framer::default();
//! for chunk in body {
//!     f.feed(chunk, |it| handle(it));
//! }
//! f.close(|it| handle(it));
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
}

impl Framer {
    /// feed consumes chunk and calls emit for every complete item in it.
    ///
    /// Each line is found with one word-at-a-time search for its CR or LF.
    /// An event whose single data line and the blank line ending it are
    /// both in chunk (one event per flush, or any event inside a larger
    /// read) is reported with its data borrowed from chunk, not copied.
    pub fn feed<F: FnMut(Item)>(&mut self, chunk: &[u8], mut emit: F) {
        let mut rest = chunk;
        // lent is the data of the event being assembled while it is one
        // line of chunk; self.data is empty meanwhile, and receives it
        // when another data line joins it or chunk ends first.
        let mut lent: Option<&[u8]> = None;
        while !rest.is_empty() {
            if self.pending_cr {
                self.pending_cr = false;
                if rest[0] == b'\n' {
                    rest = &rest[1..];
                    continue;
                }
            }
            let i = match index_eol(rest) {
                Some(i) => i,
                None => {
                    self.line.extend_from_slice(rest);
                    break;
                }
            };
            let mut next = i + 1;
            if rest[i] == b'\r' {
                match rest.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.pending_cr = true,
                }
            }
            let line = &rest[..i];
            if !self.line.is_empty() {
                // The line began in an earlier chunk (so nothing is lent).
                let mut whole = std::mem::take(&mut self.line);
                whole.extend_from_slice(line);
                self.process_line(&whole, &mut emit);
                whole.clear();
                self.line = whole;
            } else if line.is_empty() {
                self.dispatch(lent.take(), &mut emit);
            } else {
                let data = data_value(line);
                match data {
                    Some(value) if !self.has_data => {
                        lent = Some(value);
                        self.has_data = true;
                    }
                    _ => {
                        if data.is_some() {
                            if let Some(d) = lent.take() {
                                self.data.extend_from_slice(d);
                            }
                        }
                        self.process_line(line, &mut emit);
                    }
                }
            }
            rest = &rest[next..];
        }
        if let Some(d) = lent {
            self.data.extend_from_slice(d);
        }
    }

    /// close ends the body: a pending partial line is processed and an
    /// event whose data was not yet dispatched (no final blank line) is
    /// dispatched. A second close does nothing; feed must not be called
    /// after close (it is not refused).
    pub fn close<F: FnMut(Item)>(&mut self, mut emit: F) {
        if self.closed {
            return;
        }
        self.closed = true;
        self.pending_cr = false;
        if !self.line.is_empty() {
            let mut line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut emit);
            line.clear();
            self.line = line;
        }
        self.dispatch(None, &mut emit);
    }

    fn process_line<F: FnMut(Item)>(&mut self, line: &[u8], emit: &mut F) {
        if line.is_empty() {
            self.dispatch(None, emit);
            return;
        }
        if line[0] == b':' {
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
            }
            // Accepted and unused: provider streams are not resumed.
            b"id" | b"retry" => {}
            _ => {
                emit(Item { kind: Kind::Text, name: &[], data: line, done: false });
            }
        }
    }

    /// dispatch reports the event assembled so far, its data lent by feed
    /// or else in self.data.
    fn dispatch<F: FnMut(Item)>(&mut self, lent: Option<&[u8]>, emit: &mut F) {
        if !self.has_data {
            self.name.clear();
            return;
        }
        let data = match lent {
            Some(d) => d,
            None => &self.data,
        };
        // OpenAI's end-of-stream data; a slice pattern compiles to a few
        // byte compares, `==` to a memcmp call (a byte loop in wasm).
        let done = matches!(data, b"[DONE]");
        emit(Item { kind: Kind::Event, name: &self.name, data, done });
        self.name.clear();
        self.data.clear();
        self.has_data = false;
    }
}

/// data_value returns the value of line (not empty) when it is a data
/// field, as process_line reads it.
fn data_value(line: &[u8]) -> Option<&[u8]> {
    match line.get(..5) {
        Some(b"data:") => Some(line[5..].strip_prefix(b" ").unwrap_or(&line[5..])),
        _ if line == b"data" => Some(&[]),
        _ => None,
    }
}

// Masks for testing eight bytes at once.
const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// word reads eight bytes little-endian.
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// equal_bytes sets the top bit of the lowest byte of w equal to b: in
/// x = w ^ b·0x01…01 a zero byte marks a match, and
/// (x - 0x01…01) & !x & 0x80…80 sets the top bit of the lowest zero byte
/// of x. Bits above it may be false positives (a borrow), so only the
/// lowest set bit is to be read, also of an OR of such masks.
#[inline(always)]
fn equal_bytes(w: u64, b: u8) -> u64 {
    let x = w ^ LO.wrapping_mul(b as u64);
    x.wrapping_sub(LO) & !x & HI
}

/// index_byte is the index of the first b in s. It tests 16 bytes per
/// step, 8 to a word (a byte-at-a-time search framed 4x slower),
/// reading the lowest set bit of equal_bytes.
fn index_byte(s: &[u8], b: u8) -> Option<usize> {
    let mut i = 0;
    let mut blocks = s.chunks_exact(16);
    for block in &mut blocks {
        let zl = equal_bytes(word(&block[..8]), b);
        let zh = equal_bytes(word(&block[8..]), b);
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

/// index_eol is the index of the first CR or LF in s. It tests 32 bytes
/// per loop turn (in two SIMD vectors where the build has wasm SIMD, in
/// four words otherwise), then 8, then single bytes (each loop turn costs
/// a fuel charge in the plugin).
fn index_eol(s: &[u8]) -> Option<usize> {
    let eol = |w: u64| equal_bytes(w, b'\n') | equal_bytes(w, b'\r');
    #[allow(unused_mut)]
    let mut i = 0;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_load, v128_or};
        let (lf, cr) = (u8x16_splat(b'\n'), u8x16_splat(b'\r'));
        while let Some(b) = s.get(i..i + 32) {
            // SAFETY: b holds 32 bytes, read as two unaligned 16-byte
            // vectors.
            let (v, w) =
                unsafe { (v128_load(b.as_ptr() as *const v128), v128_load(b.as_ptr().add(16) as *const v128)) };
            let m = u8x16_bitmask(v128_or(u8x16_eq(v, lf), u8x16_eq(v, cr))) as u32
                | (u8x16_bitmask(v128_or(u8x16_eq(w, lf), u8x16_eq(w, cr))) as u32) << 16;
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 32;
        }
    }
    while let Some(b) = s.get(i..i + 32) {
        let (z0, z1, z2, z3) = (eol(word(&b[..8])), eol(word(&b[8..16])), eol(word(&b[16..24])), eol(word(&b[24..32])));
        if z0 | z1 | z2 | z3 != 0 {
            let (at, z) = if z0 != 0 {
                (0, z0)
            } else if z1 != 0 {
                (8, z1)
            } else if z2 != 0 {
                (16, z2)
            } else {
                (24, z3)
            };
            return Some(i + at + (z.trailing_zeros() / 8) as usize);
        }
        i += 32;
    }
    while let Some(b) = s.get(i..i + 8) {
        let z = eol(word(b));
        if z != 0 {
            return Some(i + (z.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    s.get(i..)?.iter().position(|&c| c == b'\n' || c == b'\r').map(|j| i + j)
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
        Got { kind: Kind::Event, name: name.as_bytes().to_vec(), data: data.as_bytes().to_vec(), done }
    }

    fn text(data: &str) -> Got {
        Got { kind: Kind::Text, name: Vec::new(), data: data.as_bytes().to_vec(), done: false }
    }

    fn frame(chunks: &[&[u8]]) -> Vec<Got> {
        let mut f = Framer::default();
        let mut out = Vec::new();
        let mut emit =
            |it: Item| out.push(Got { kind: it.kind, name: it.name.to_vec(), data: it.data.to_vec(), done: it.done });
        for c in chunks {
            f.feed(c, &mut emit);
        }
        f.close(&mut emit);
        out
    }

    #[test]
    fn framer_table() {
        struct Case {
            name: &'static str,
            chunks: Vec<&'static [u8]>,
            want: Vec<Got>,
        }
        let cases = vec![
            Case {
                name: "lf events with names",
                chunks: vec![b"event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n"],
                want: vec![ev("a", "{\"x\":1}", false), ev("b", "2", false)],
            },
            Case {
                name: "crlf split between cr and lf",
                chunks: vec![b"data: 1\r", b"\n\r", b"\ndata: 2\r\n\r\n"],
                want: vec![ev("", "1", false), ev("", "2", false)],
            },
            Case {
                name: "bare cr separators",
                chunks: vec![b"data: 1\r\rdata: 2\r\r"],
                want: vec![ev("", "1", false), ev("", "2", false)],
            },
            Case {
                name: "multi-line data joins with lf, optional space only once",
                chunks: vec![b"data:a\ndata:  b\ndata\n\n"],
                want: vec![ev("", "a\n b\n", false)],
            },
            Case {
                name: "comments, id and retry are not data",
                chunks: vec![b": OPENROUTER PROCESSING\n\nid: 7\nretry: 10\ndata: x\n\n:\n"],
                want: vec![ev("", "x", false)],
            },
            Case {
                name: "done sentinel is reported",
                chunks: vec![b"data: {}\n\ndata: [DONE]\n\n"],
                want: vec![ev("", "{}", false), ev("", "[DONE]", true)],
            },
            Case {
                name: "body ends without a blank line",
                chunks: vec![b"data: 1\n\ndata: 2"],
                want: vec![ev("", "1", false), ev("", "2", false)],
            },
            Case {
                name: "event name without data dispatches nothing",
                chunks: vec![b"event: ping\n\ndata: 1\n\n"],
                want: vec![ev("", "1", false)],
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
            },
            Case {
                name: "utf-8 split inside a sequence",
                chunks: vec![b"data: Ol\xc3", b"\xa1!\n\n"],
                want: vec![ev("", "Ol\u{e1}!", false)],
            },
            Case {
                name: "trailing cr at close ends the line",
                chunks: vec![b"data: 1\n", b"x\r"],
                want: vec![text("x"), ev("", "1", false)],
            },
            Case {
                name: "a lent data line joined by a later one across other lines",
                chunks: vec![b"data: a\n: c\nevent: e\nid: 1\ndata: b\n\ndata: c\n", b"\n"],
                want: vec![ev("e", "a\nb", false), ev("", "c", false)],
            },
            Case {
                name: "cr lf inside a chunk and a bare data field",
                chunks: vec![b"data\r\n\r\ndata:x\r\rdata: [DONE]\r\n\r\n"],
                want: vec![ev("", "", false), ev("", "x", false), ev("", "[DONE]", true)],
            },
            Case { name: "empty body", chunks: vec![b"", b""], want: vec![] },
        ];
        for c in cases {
            assert_eq!(frame(&c.chunks), c.want, "{}: items", c.name);
            // The same body one byte at a time gives the same result.
            let whole: Vec<u8> = c.chunks.concat();
            let singles: Vec<&[u8]> = whole.chunks(1).collect();
            assert_eq!(frame(&singles), c.want, "{}: byte-at-a-time items", c.name);
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
        let mut events = 0;
        // Split mid-line so the carried-over line buffer is used too.
        f.feed(&body[..40], |_| events += 1);
        f.feed(&body[40..], |_| events += 1);
        let caps = (f.line.capacity(), f.name.capacity(), f.data.capacity());
        for _ in 0..100 {
            f.feed(&body[..40], |_| events += 1);
            f.feed(&body[40..], |_| events += 1);
        }
        assert_eq!((f.line.capacity(), f.name.capacity(), f.data.capacity()), caps);
        assert_eq!(events, 101);
    }

    #[test]
    fn whole_events_are_lent_not_copied() {
        let mut f = Framer::default();
        let mut got = Vec::new();
        f.feed(b"event: a\ndata: {\"x\":1}\n\ndata: 2\r\n\r\n", |it| got.push(it.data.to_vec()));
        assert_eq!(got, [b"{\"x\":1}".to_vec(), b"2".to_vec()]);
        assert_eq!(f.data.capacity(), 0, "an event inside one chunk was copied");
        // An event cut by the chunk's end is kept until the blank line.
        f.feed(b"data: 3\n", |it| got.push(it.data.to_vec()));
        f.feed(b"\n", |it| got.push(it.data.to_vec()));
        assert_eq!(got.last(), Some(&b"3".to_vec()));
    }

    #[test]
    fn index_eol_finds_the_first_cr_or_lf() {
        assert_eq!(index_eol(&[]), None);
        let s = vec![b'a'; 80];
        assert_eq!(index_eol(&s), None);
        for at in 0..80 {
            for (c, d) in [(b'\r', b'\n'), (b'\n', b'\r'), (b'\n', b'\n')] {
                for later in at..80 {
                    let mut t = s.clone();
                    t[later] = d;
                    t[at] = c;
                    assert_eq!(index_eol(&t), Some(at), "at {} later {}", at, later);
                }
            }
        }
        let mut t = s.clone();
        t[5] = b'\r' + 1;
        t[6] = b'\n' + 0x80;
        t[7] = b'\n' - 1;
        assert_eq!(index_eol(&t), None);
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
}
