//! The argument reader: binds the properties of a tool's argument object
//! to the tool's variables, reading the JSON with the shared reader
//! (smith_json::read), and words what is wrong for the model.
//!
//! The host has already validated the arguments against the tool's
//! schema, so the messages are a defensive layer: the first syntax error
//! (with its offset and the offending character), else the first list
//! element of the wrong kind, else the first property a field could not
//! take.

use crate::output::cat;
use smith_json::read::{parse_int, Decoder, Kind};

/// Slot is where a property's value goes.
enum Slot<'f> {
    Str(&'f mut String),
    Int(&'f mut i64),
    Bool(&'f mut bool),
    /// List reads each element of an array with the function, until it
    /// fails; the elements after that one are skipped.
    List(&'f mut dyn FnMut(&mut Decoder) -> Result<(), String>),
}

/// Field binds one property name to where its value goes; seen, when set,
/// becomes true once the property is present and not null.
pub(crate) struct Field<'f> {
    name: &'static str,
    slot: Slot<'f>,
    seen: Option<&'f mut bool>,
}

/// str_field binds name to a string.
pub(crate) fn str_field<'f>(name: &'static str, v: &'f mut String) -> Field<'f> {
    Field { name, slot: Slot::Str(v), seen: None }
}

/// int_field binds name to an integer.
pub(crate) fn int_field<'f>(name: &'static str, v: &'f mut i64) -> Field<'f> {
    Field { name, slot: Slot::Int(v), seen: None }
}

/// bool_field binds name to a boolean.
pub(crate) fn bool_field<'f>(name: &'static str, v: &'f mut bool) -> Field<'f> {
    Field { name, slot: Slot::Bool(v), seen: None }
}

/// list_field binds name to a list whose elements each reads.
pub(crate) fn list_field<'f>(
    name: &'static str,
    each: &'f mut dyn FnMut(&mut Decoder) -> Result<(), String>,
) -> Field<'f> {
    Field { name, slot: Slot::List(each), seen: None }
}

impl<'f> Field<'f> {
    /// seen returns the field with seen set to record its presence.
    pub(crate) fn seen(self, seen: &'f mut bool) -> Field<'f> {
        Field { seen: Some(seen), ..self }
    }

    /// read reads the next value of d into the field; null leaves the
    /// field as it is. The error says why the value does not fit, and
    /// leaves the value unread.
    pub(crate) fn read(&mut self, d: &mut Decoder) -> Result<(), String> {
        if d.null() {
            return Ok(());
        }
        if let Some(seen) = self.seen.as_deref_mut() {
            *seen = true;
        }
        let got = d.peek();
        let must = match (&mut self.slot, got) {
            (Slot::Str(v), Kind::Str) => {
                **v = d.str().string();
                return Ok(());
            }
            (Slot::Int(v), Kind::Number) => {
                if let Some(text) = d.raw() {
                    **v = integer(self.name, text)?;
                }
                return Ok(());
            }
            (Slot::Bool(v), Kind::Bool) => {
                **v = d.bool();
                return Ok(());
            }
            (Slot::List(each), Kind::Array) => {
                let mut res = Ok(());
                d.array(|d| {
                    if res.is_ok() {
                        res = each(d);
                    }
                });
                return res;
            }
            (Slot::Str(_), _) => "must be a string",
            (Slot::Int(_), _) => "must be an integer",
            (Slot::Bool(_), _) => "must be true or false",
            (Slot::List(_), _) => "must be a list",
        };
        Err(cat(&["\"", self.name, "\" ", must, ", not ", got.name()]))
    }
}

/// object reads the object d holds next into fields: a property no field
/// names is skipped (the host's schema check refuses those first), and so
/// is every property after the first one a field could not take, whose
/// error it returns. null reads nothing; another kind is the decoder's
/// type mismatch.
pub(crate) fn object(d: &mut Decoder, fields: &mut [Field]) -> Result<(), String> {
    let mut res = Ok(());
    d.object(|d, key| {
        if res.is_ok() {
            if let Some(f) = fields.iter_mut().find(|f| f.name.as_bytes() == key) {
                res = f.read(d);
            }
        }
    });
    res
}

/// decode reads args, a JSON object, into fields (see object). The error
/// is the invalid-arguments message for tool telling the model what was
/// wrong: a syntax error anywhere comes first, then a value of the wrong
/// kind inside a list, then the first property the tool could not use.
pub(crate) fn decode(tool: &str, args: &[u8], fields: &mut [Field]) -> Result<(), String> {
    let mut d = Decoder::new(args);
    let res = match d.peek() {
        Kind::Object => object(&mut d, fields),
        // Invalid: skip records the syntax error, which the finish reports.
        got => {
            d.skip();
            Err(cat(&["the arguments must be a JSON object, not ", got.name()]))
        }
    };
    let msg = match (d.finish(), res) {
        (Err(e), _) => e.message().to_string(),
        (Ok(()), Err(m)) => m,
        (Ok(()), Ok(())) => return Ok(()),
    };
    Err(cat(&[tool, ": arguments are not valid: ", &msg, "; send a JSON object matching the tool's schema"]))
}

/// integer converts the JSON number text of property name to an integer.
/// It takes a whole number written with a fraction or an exponent (3.0,
/// 1e3, 250e-1) as an integer, up to 2^53 in magnitude, and decides
/// exactly: 1.5 and 1e-400 are not whole. (The host's schema check reads
/// the number as a float64, which agrees for every number of at most 15
/// significant digits.)
fn integer(name: &str, text: &[u8]) -> Result<i64, String> {
    parse_int(text).or_else(|| whole(text)).ok_or_else(|| {
        let s = std::str::from_utf8(text).unwrap_or("");
        cat(&["\"", name, "\" must be a whole number between -2^53 and 2^53, not ", s])
    })
}

/// whole returns the number text (JSON's grammar, already validated) as
/// an integer when its value is a whole number of magnitude at most 2^53.
fn whole(text: &[u8]) -> Option<i64> {
    const LIMIT: u64 = 1 << 53;
    let (neg, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let (mantissa, exp) = match text.iter().position(|&c| c == b'e' || c == b'E') {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, &b""[..]),
    };
    // The exponent, saturated far beyond any digit count that matters.
    let (sign, digits) = match exp.split_first() {
        Some((b'-', rest)) => (-1, rest),
        Some((b'+', rest)) => (1, rest),
        _ => (1, exp),
    };
    let mut e: i64 = 0;
    for &c in digits {
        e = (e * 10 + i64::from(c - b'0')).min(1 << 20);
    }
    e *= sign;
    // The significant digits, without leading and trailing zeros; the
    // value is digits × 10^e.
    let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, &b""[..]),
    };
    e -= frac.len() as i64;
    let all = || int.iter().chain(frac);
    let lead = all().take_while(|&&c| c == b'0').count();
    let len = int.len() + frac.len();
    let trail = all().rev().take_while(|&&c| c == b'0').count().min(len - lead);
    e += trail as i64;
    let sig = len - lead - trail;
    if sig == 0 {
        return Some(0);
    }
    if e < 0 || sig as i64 + e > 16 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in all().skip(lead).take(sig) {
        v = v * 10 + u64::from(c - b'0');
    }
    for _ in 0..e {
        v *= 10;
    }
    (v <= LIMIT).then(|| if neg { -(v as i64) } else { v as i64 })
}
