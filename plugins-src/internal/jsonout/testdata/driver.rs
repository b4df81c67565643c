//! The jsonout fuzz driver (see package rustdriver). Every reply is a
//! status byte, 0 for a JSON text or 1 for an error message, then that
//! text or message.
//!
//!   's' payload: string bytes     the JSON string (never an error)
//!   'f' payload: u64 LE bits      the float64
//!   'r' payload: raw bytes        the RawMessage, compacted
//!   'v' payload: an encoded value the value, written through the Writer
//!   'S' payload: strings, each    each JSON string, as u32 LE length and
//!       as u32 LE length, bytes   text (the status byte is 0)
//!   'F' payload: u64 LE bits,     each float64 as u32 LE length and text,
//!       one after another         an error as length 0xffffffff
//!   'e' payload: raw bytes        the RawMessage compacted, or the text of
//!                                 json.Marshal's error (marshal_error_text)
//!   'x' payload: raw bytes        the same, the error as syntax_error_text
//!   'g' payload: u64 LE bits      the float64, or marshal_error_text
//!   'b' payload: bytes            a []byte, written by Writer::bytes
//!
//! A value is encoded (by fuzz_test.go) as a tag byte and its content,
//! lengths and counts as u32 LE: 'n' null, 't' true, 'F' false, 'd' f64
//! bits, 'i' i64, 'u' u64 (8 bytes LE each), 's' string and 'r' raw (length,
//! bytes), 'a' array (count, values), 'm' map (count, then key length, key
//! bytes and value per entry; written sorted) and 'o' struct (the same, the
//! members written in the order given).

#[path = "../../jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
// The driver uses most of the module, not all of it.
#[allow(dead_code)]
#[path = "../jsonout.rs"]
mod jsonout;

use jsonout::{Error, Writer};

enum Value<'a> {
    Null,
    Bool(bool),
    Float(f64),
    Int(i64),
    Uint(u64),
    Str(&'a [u8]),
    Raw(&'a [u8]),
    Array(Vec<Value<'a>>),
    Map(Vec<(&'a [u8], Value<'a>)>),
    Struct(Vec<(&'a [u8], Value<'a>)>),
}

/// Reader takes an encoded value apart; None means malformed.
struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.data.len() {
            return None;
        }
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<usize> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(n)
    }

    fn members(&mut self) -> Option<Vec<(&'a [u8], Value<'a>)>> {
        let n = self.u32()?;
        let mut out = Vec::new();
        for _ in 0..n {
            let k = self.bytes()?;
            out.push((k, self.value()?));
        }
        Some(out)
    }

    fn value(&mut self) -> Option<Value<'a>> {
        Some(match self.take(1)?[0] {
            b'n' => Value::Null,
            b't' => Value::Bool(true),
            b'F' => Value::Bool(false),
            b'd' => Value::Float(f64::from_bits(self.u64()?)),
            b'i' => Value::Int(self.u64()? as i64),
            b'u' => Value::Uint(self.u64()?),
            b's' => Value::Str(self.bytes()?),
            b'r' => Value::Raw(self.bytes()?),
            b'a' => {
                let n = self.u32()?;
                let mut out = Vec::new();
                for _ in 0..n {
                    out.push(self.value()?);
                }
                Value::Array(out)
            }
            b'm' => Value::Map(self.members()?),
            b'o' => Value::Struct(self.members()?),
            _ => return None,
        })
    }
}

fn write(w: &mut Writer, v: &Value) -> Result<(), Error> {
    match v {
        Value::Null => w.null(),
        Value::Bool(b) => w.bool(*b),
        Value::Float(f) => w.float64(*f)?,
        Value::Int(i) => w.int(*i),
        Value::Uint(u) => w.uint(*u),
        Value::Str(s) => w.string(*s),
        Value::Raw(r) => w.raw(r)?,
        Value::Array(items) => {
            w.begin_array();
            for item in items {
                write(w, item)?;
            }
            w.end_array();
        }
        Value::Map(entries) => {
            let mut entries: Vec<(&[u8], &Value)> = entries.iter().map(|(k, v)| (*k, v)).collect();
            w.map(&mut entries, |w, v| write(w, v))?;
        }
        Value::Struct(fields) => {
            w.begin_object();
            for (k, v) in fields {
                w.key(*k);
                write(w, v)?;
            }
            w.end_object();
        }
    }
    Ok(())
}

fn reply(r: Result<Vec<u8>, String>) -> Vec<u8> {
    match r {
        Ok(text) => [&[0u8][..], &text].concat(),
        Err(msg) => [&[1u8][..], msg.as_bytes()].concat(),
    }
}

fn answer(op: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match op {
        b's' => {
            jsonscan::append_quote(&mut out, payload);
            reply(Ok(out))
        }
        b'f' => {
            let mut bits = [0u8; 8];
            if payload.len() != 8 {
                return reply(Err(format!("driver: op f wants 8 bytes, got {}", payload.len())));
            }
            bits.copy_from_slice(payload);
            reply(
                jsonout::append_float64(&mut out, f64::from_bits(u64::from_le_bytes(bits)))
                    .map(|_| out)
                    .map_err(|e| e.to_string()),
            )
        }
        b'r' => reply(jsonout::append_raw(&mut out, payload).map(|_| out).map_err(|e| e.to_string())),
        b'e' => reply(jsonout::append_raw(&mut out, payload).map(|_| out).map_err(|e| jsonout::marshal_error_text(payload, &e))),
        b'x' => reply(jsonout::append_raw(&mut out, payload).map(|_| out).map_err(|e| jsonout::syntax_error_text(payload, &e))),
        b'b' => {
            let mut w = Writer::new();
            w.bytes(payload);
            reply(Ok(w.into_bytes()))
        }
        b'g' => {
            let mut bits = [0u8; 8];
            if payload.len() != 8 {
                return reply(Err(format!("driver: op g wants 8 bytes, got {}", payload.len())));
            }
            bits.copy_from_slice(payload);
            reply(
                jsonout::append_float64(&mut out, f64::from_bits(u64::from_le_bytes(bits)))
                    .map(|_| out)
                    .map_err(|e| jsonout::marshal_error_text(b"", &e)),
            )
        }
        b'v' => {
            let mut r = Reader { data: payload };
            let v = match r.value() {
                Some(v) if r.data.is_empty() => v,
                _ => return reply(Err("driver: malformed value encoding".to_string())),
            };
            let mut w = Writer::new();
            reply(write(&mut w, &v).map(|_| w.into_bytes()).map_err(|e| e.to_string()))
        }
        b'S' => {
            let mut r = Reader { data: payload };
            let mut out = vec![0u8];
            let mut text = Vec::new();
            while !r.data.is_empty() {
                let s = match r.bytes() {
                    Some(s) => s,
                    None => return reply(Err("driver: malformed string batch".to_string())),
                };
                text.clear();
                jsonscan::append_quote(&mut text, s);
                out.extend_from_slice(&(text.len() as u32).to_le_bytes());
                out.extend_from_slice(&text);
            }
            out
        }
        b'F' => {
            let mut out = vec![0u8];
            let mut text = Vec::new();
            for bits in payload.chunks(8) {
                let mut a = [0u8; 8];
                a[..bits.len()].copy_from_slice(bits);
                text.clear();
                match jsonout::append_float64(&mut text, f64::from_bits(u64::from_le_bytes(a))) {
                    Ok(()) => {
                        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
                        out.extend_from_slice(&text);
                    }
                    Err(_) => out.extend_from_slice(&u32::MAX.to_le_bytes()),
                }
            }
            out
        }
        _ => reply(Err(format!("driver: unknown op {:?}", op as char))),
    }
}

#[path = "../../rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| answer(op, &payload))
}
