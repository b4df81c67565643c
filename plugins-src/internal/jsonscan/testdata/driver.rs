//! The native driver for the Go fuzz targets in rust_test.go: it runs
//! jsonscan.rs on requests framed as plugins-src/internal/rustdriver
//! frames them. Op 'w' walks a JSON text with a script (the payload is the
//! text's length as a u32le, the text, then the script) and answers the
//! trace; 'q' answers append_quote of the payload; 'c' answers
//! append_compact of the payload; 'b' (the benchmark) reads each line of
//! the payload after a u32le count that many times (see scan) and answers
//! the nanoseconds it took as a u64le and the checksum as a u64le. Walk, its script and its trace are
//! defined alike in rust_test.go's walker; the two must stay in step.

#[path = "../jsonscan.rs"]
mod jsonscan;

use jsonscan::{append_compact, append_quote, Decoder, Error, Kind};

/// Walker runs a walk script over a decoder, recording a trace.
struct Walker<'s> {
    script: &'s [u8],
    at: usize,
    trace: Vec<u8>,
}

impl<'s> Walker<'s> {
    /// emit records one entry: the tag, a space, the value's length in
    /// decimal, a colon, the value and a newline.
    fn emit(&mut self, tag: &str, value: &[u8]) {
        self.trace.extend_from_slice(tag.as_bytes());
        self.trace.extend_from_slice(format!(" {}:", value.len()).as_bytes());
        self.trace.extend_from_slice(value);
        self.trace.push(b'\n');
    }

    fn emit_opt(&mut self, tag: &str, value: Option<&[u8]>) {
        match value {
            Some(v) => self.emit(tag, v),
            None => self.emit(tag, b"<nil>"),
        }
    }

    fn emit_bool(&mut self, tag: &str, v: bool) {
        self.emit(tag, if v { b"true" } else { b"false" });
    }

    fn emit_result(&mut self, tag: &str, r: Result<(), Error>) {
        match r {
            Ok(()) => self.emit(tag, b"<nil>"),
            Err(e) => self.emit(tag, e.to_string().as_bytes()),
        }
    }

    fn str(&mut self, d: &mut Decoder) {
        let s = d.str();
        self.emit_opt("str", s.raw());
        self.emit_bool("nil", s.is_nil());
        self.emit("string", s.string().as_bytes());
        let b = s.bytes();
        self.emit_opt("bytes", b.as_deref());
        self.emit_bool("empty", s.empty());
        self.emit_bool("equal-empty", s.equal(""));
        self.emit_bool("equal-enc", s.equal("enc"));
        if let Some(raw) = s.raw() {
            if let Ok(content) = std::str::from_utf8(&raw[1..raw.len() - 1]) {
                self.emit_bool("equal-content", s.equal(content));
            }
        }
    }

    /// value runs the script's next operation on the next value; an ended
    /// script leaves it unread.
    fn value(&mut self, d: &mut Decoder) {
        let op = match self.script.get(self.at) {
            Some(&op) => op % 13,
            None => return,
        };
        self.at += 1;
        match op {
            0 => {
                let k = d.peek();
                self.emit("peek", k.name().as_bytes());
                self.value(d);
            }
            1 => {
                d.skip();
                self.emit("skip", b"");
            }
            2 => {
                let r = d.raw();
                self.emit_opt("raw", r);
            }
            3 => {
                let v = d.null();
                self.emit_bool("null", v);
            }
            4 => self.str(d),
            5 => {
                let v = d.bool();
                self.emit_bool("bool", v);
            }
            6 => match d.int() {
                Some(v) => self.emit("int", v.to_string().as_bytes()),
                None => self.emit("int", b"<none>"),
            },
            7 => {
                self.emit("object", b"");
                d.object(|d, key| {
                    self.emit("key", key);
                    self.value(d);
                });
                self.emit("object-end", b"");
            }
            8 => {
                self.emit("array", b"");
                d.array(|d| {
                    self.emit("elem", b"");
                    self.value(d);
                });
                self.emit("array-end", b"");
            }
            9 => {
                let r = d.finish();
                self.emit_result("finish", r);
            }
            10 => {
                self.value(d);
                self.value(d);
            }
            11 => self.emit("leave", b""),
            _ => self.walk(d),
        }
    }

    /// walk reads the next value whole, by its kind, as a codec would.
    fn walk(&mut self, d: &mut Decoder) {
        match d.peek() {
            Kind::Object => {
                self.emit("walk-object", b"");
                d.object(|d, key| {
                    self.emit("key", key);
                    self.walk(d);
                });
            }
            Kind::Array => {
                self.emit("walk-array", b"");
                d.array(|d| self.walk(d));
            }
            Kind::Str => self.str(d),
            Kind::Number => {
                let r = d.raw();
                self.emit_opt("number", r);
            }
            Kind::Bool => {
                let v = d.bool();
                self.emit_bool("bool", v);
            }
            Kind::Null => {
                let v = d.null();
                self.emit_bool("null", v);
            }
            Kind::Invalid => {
                d.skip();
                self.emit("invalid", b"");
            }
        }
    }
}

/// walk runs script over text: operations until the script ends, then
/// finish.
fn walk(text: &[u8], script: &[u8]) -> Vec<u8> {
    // As the Go side starts from a zero Decoder and resets it.
    let mut d = Decoder::new(b"");
    d.reset(text);
    let mut w = Walker { script, at: 0, trace: Vec::new() };
    while w.at < script.len() {
        w.value(&mut d);
    }
    let r = d.finish();
    w.emit_result("finish", r);
    w.trace
}

/// scan reads the next value whole as a codec would, strings unquoted,
/// and returns the length of what it read: keys, unquoted strings, number
/// texts, 1 for true. bench_test.go's scan is the same in Go.
fn scan(d: &mut Decoder) -> u64 {
    match d.peek() {
        Kind::Object => {
            let mut n = 0;
            d.object(|d, key| n += key.len() as u64 + scan(d));
            n
        }
        Kind::Array => {
            let mut n = 0;
            d.array(|d| n += scan(d));
            n
        }
        Kind::Str => d.str().unquoted().len() as u64,
        Kind::Number => d.raw().map_or(0, |r| r.len() as u64),
        Kind::Bool => d.bool() as u64,
        Kind::Null => {
            d.null();
            0
        }
        Kind::Invalid => {
            d.skip();
            0
        }
    }
}

/// bench scans each line of lines, count times over, and returns the
/// nanoseconds that took and the checksum of the last pass.
fn bench(count: u32, lines: &[u8]) -> (u64, u64) {
    let lines: Vec<&[u8]> = lines.split(|&c| c == b'\n').filter(|l| !l.is_empty()).collect();
    let start = std::time::Instant::now();
    let mut sum = 0;
    for _ in 0..count {
        sum = 0;
        for line in &lines {
            let mut d = Decoder::new(line);
            sum += scan(&mut d);
            if d.finish().is_err() {
                sum += 1 << 32;
            }
        }
    }
    (start.elapsed().as_nanos() as u64, sum)
}

fn answer(op: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match op {
        b'w' => {
            let n = match payload.get(..4) {
                Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
                None => panic!("driver: a walk request of {} bytes lacks the text's length", payload.len()),
            };
            let rest = &payload[4..];
            if n > rest.len() {
                panic!("driver: a walk request's text of {} bytes exceeds its payload of {}", n, rest.len());
            }
            out = walk(&rest[..n], &rest[n..]);
        }
        b'q' => append_quote(&mut out, payload),
        b'c' => append_compact(&mut out, payload),
        b'b' if payload.len() >= 4 => {
            let (ns, sum) = bench(u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]), &payload[4..]);
            out.extend_from_slice(&ns.to_le_bytes());
            out.extend_from_slice(&sum.to_le_bytes());
        }
        other => panic!("driver: unknown op {:#x}", other),
    }
    out
}

#[path = "../../rustdriver/serve.rs"]
mod frames;

fn serve() {
    frames::serve(|op, payload| answer(op, &payload))
}

fn main() {
    // Walks recurse once per script operation, and a script may be long.
    let server = std::thread::Builder::new().stack_size(1 << 30).spawn(serve);
    if server.expect("driver: starting the serving thread").join().is_err() {
        std::process::exit(101);
    }
}
