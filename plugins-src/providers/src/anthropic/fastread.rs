//! fastread reads the events servers send nearly always — compact JSON
//! objects with unescaped keys, string fields, an integer index, nested
//! values kept raw or skipped — into a [`Event`] without the general
//! reader's callbacks: one [`Cursor`] whose offset stays in a register. It is
//! the decoder's fast path in wasm, where every call, every loop entered
//! (a fuel charge) and every load and store of a reader kept in memory (a
//! bounds check) costs.
//!
//! It never decides anything the general reader ([`Event::read`]) would
//! decide differently: where a text is not what it expects (a syntax
//! error, a type a field does not take, an escaped key where a field is
//! matched, an "error" that is not null, an integer it would have to
//! think about, containers nested more than 64 deep in a value it skips
//! or keeps raw) it gives up with None, and the decoder reads the text
//! again with `Event::read`, which accepts or rejects it. What it reads it
//! reads as `Event::read` does (tested in this file and by the fuzz
//! targets).
//!
//! The deltas of one content block begin alike, up to their text:
//! `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":`.
//! A [`Prefix`] remembers that beginning, so the next delta that begins
//! with the same bytes is read on from its text.

use super::wire::{Delta, Event};
use smith_json::read::{same_bytes, Cursor, Str};

/// Prefix remembers how the last event read in full from its start began,
/// when that was a delta's: its bytes up to the colon after the delta's
/// first text key (text, thinking, partial_json or signature), before
/// which the event held only "type" and "index" members and the delta
/// only a "type" — with where those type strings start (None: null or
/// absent), the index, and the text key. An event that begins with the
/// same bytes reads the same up to there, so [`read`] takes the type
/// strings at the same offsets and reads on from the text's value. Empty
/// at first.
#[derive(Default)]
pub(crate) struct Prefix {
    bytes: Vec<u8>,
    typ: Option<usize>,
    index: i64,
    delta_typ: Option<usize>,
    field: Field,
}

/// Field is a delta's text field.
#[derive(Clone, Copy, Default)]
enum Field {
    #[default]
    Text,
    Thinking,
    PartialJson,
    Signature,
}

impl Field {
    /// of returns the field key names, if it names one.
    #[inline(always)]
    fn of(key: &[u8]) -> Option<Field> {
        Some(match key {
            b"text" => Field::Text,
            b"thinking" => Field::Thinking,
            b"partial_json" => Field::PartialJson,
            b"signature" => Field::Signature,
            _ => return None,
        })
    }

    /// of_delta returns the field of d it names.
    #[inline(always)]
    fn of_delta<'d, 'a>(self, d: &'d mut Delta<'a>) -> &'d mut Str<'a> {
        match self {
            Field::Text => &mut d.text,
            Field::Thinking => &mut d.thinking,
            Field::PartialJson => &mut d.partial_json,
            Field::Signature => &mut d.signature,
        }
    }
}

/// Mark is where a read from the start may end a prefix: the offset after
/// the text key's colon, the type strings' offsets, the index and the key.
struct Mark {
    end: usize,
    typ: Option<usize>,
    index: i64,
    delta_typ: Option<usize>,
    field: Field,
}

/// read reads data into e, which must be empty (`Event::default()`),
/// taking up after the text key when data begins as `prefix` does; a
/// delta read in full from the start becomes the new prefix. None means:
/// read it with `Event::read`; e then holds a partial read, to be
/// discarded.
pub(crate) fn read<'a>(e: &mut Event<'a>, data: &'a [u8], prefix: &mut Prefix) -> Option<()> {
    let mut r = Cursor { data, pos: 0 };
    let mut more;
    // recording: reading from the start and, so far, only the members a
    // prefix may hold; typ is where the last type string read starts.
    let mut recording = false;
    let mut typ = None;
    let mut mark = None;
    let n = prefix.bytes.len();
    if n != 0 && data.len() > n && same_bytes(&data[..n], &prefix.bytes) {
        if let Some(at) = prefix.typ {
            e.typ = Str::at(data, at)?.0;
        }
        e.index = prefix.index;
        e.has_delta = true;
        if let Some(at) = prefix.delta_typ {
            e.delta.typ = Str::at(data, at)?.0;
        }
        r.pos = n;
        *prefix.field.of_delta(&mut e.delta) = r.str()?;
        let more_delta = r.next(b'}')?;
        delta_members(&mut r, &mut e.delta, more_delta)?;
        more = r.next(b'}')?;
    } else {
        more = r.open(b'{', b'}')?;
        recording = true;
    }
    while more {
        let key = r.key()?;
        match key {
            b"type" => {
                r.space();
                let at = r.pos;
                e.typ = r.str()?;
                typ = if e.typ.is_nil() { None } else { Some(at) };
            }
            b"index" => e.index = r.int()?.unwrap_or(0),
            b"delta" => {
                // As the general reader: whether the last "delta" is an
                // object, the fields of every one accumulating.
                e.has_delta = r.peek()? == b'{';
                if recording && e.has_delta {
                    mark = delta(&mut r, &mut e.delta, true)?.map(|(end, delta_typ, field)| Mark {
                        end,
                        typ,
                        index: e.index,
                        delta_typ,
                        field,
                    });
                } else {
                    delta(&mut r, &mut e.delta, false)?;
                }
                recording = false;
            }
            b"content_block" => e.content_block = r.value()?,
            b"message" => {
                e.has_message = r.peek()? == b'{';
                if r.null()?.is_none() {
                    let mut more = r.open(b'{', b'}')?;
                    while more {
                        match r.key()? {
                            b"id" => e.message_id = r.str()?,
                            b"model" => e.message_model = r.str()?,
                            b"usage" => e.message_usage = r.value()?,
                            _ => {
                                r.value()?;
                            }
                        }
                        more = r.next(b'}')?;
                    }
                }
            }
            b"usage" => e.usage = r.value()?,
            // A null error is no error; any other is left to the general
            // reader, which reads error objects.
            b"error" => {
                r.null()??;
            }
            _ => {
                r.value()?;
            }
        }
        recording = recording && matches!(key, b"type" | b"index");
        more = r.next(b'}')?;
    }
    r.space();
    if r.pos != data.len() {
        return None;
    }
    if let Some(m) = mark {
        // Read in full from the start: its bytes up to the text key are
        // the prefix the next event is compared with.
        prefix.bytes.clear();
        prefix.bytes.extend_from_slice(&data[..m.end]);
        (prefix.typ, prefix.index, prefix.delta_typ, prefix.field) = (m.typ, m.index, m.delta_typ, m.field);
    }
    Some(())
}

/// delta reads a "delta" value, null or an object whose fields it adds to
/// d. With record, an object whose members before its first text key are
/// only a "type" gives where a prefix may end: the offset after that key's
/// colon, where the type string starts (None: null or absent) and the key.
fn delta<'a>(r: &mut Cursor<'a>, d: &mut Delta<'a>, mut record: bool) -> Option<Option<(usize, Option<usize>, Field)>> {
    if r.null()?.is_some() {
        return Some(None);
    }
    let mut more = r.open(b'{', b'}')?;
    let mut typ = None;
    while more && record {
        let key = r.key()?;
        if let Some(f) = Field::of(key) {
            let end = r.pos;
            *f.of_delta(d) = r.str()?;
            more = r.next(b'}')?;
            delta_members(r, d, more)?;
            return Some(Some((end, typ, f)));
        }
        match key {
            b"type" => {
                r.space();
                let at = r.pos;
                d.typ = r.str()?;
                typ = if d.typ.is_nil() { None } else { Some(at) };
            }
            _ => {
                delta_member(r, d, key)?;
                record = false;
            }
        }
        more = r.next(b'}')?;
    }
    delta_members(r, d, more)?;
    Some(None)
}

/// delta_members reads the rest of a delta object's members, the first
/// of them when more.
fn delta_members<'a>(r: &mut Cursor<'a>, d: &mut Delta<'a>, mut more: bool) -> Option<()> {
    while more {
        let key = r.key()?;
        delta_member(r, d, key)?;
        more = r.next(b'}')?;
    }
    Some(())
}

/// delta_member reads the value of the delta member key.
fn delta_member<'a>(r: &mut Cursor<'a>, d: &mut Delta<'a>, key: &[u8]) -> Option<()> {
    match key {
        b"type" => d.typ = r.str()?,
        b"text" => d.text = r.str()?,
        b"thinking" => d.thinking = r.str()?,
        b"partial_json" => d.partial_json = r.str()?,
        b"signature" => d.signature = r.str()?,
        b"stop_reason" => d.stop_reason = r.str()?,
        _ => {
            r.value()?;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::wire::Event;
    use super::{read, Prefix};
    use crate::fasttest::{compare, resumes, Case, Resume};

    /// general reads data with the general reader, rendering what it read.
    fn general(data: &[u8]) -> Result<String, String> {
        Event::read(data).map(|e| format!("{:?}", e)).map_err(|e| format!("{:?}", e))
    }

    /// fast reads data with the fast reader, rendering what it read (None
    /// when it gives up).
    fn fast(data: &[u8]) -> Option<String> {
        fast_after(data, &mut Prefix::default())
    }

    /// fast_after reads data with the fast reader after prefix.
    fn fast_after(data: &[u8], prefix: &mut Prefix) -> Option<String> {
        let mut e = Event::default();
        read(&mut e, data, prefix).map(|()| format!("{:?}", e))
    }

    /// An event that begins as the last delta read in full did is read on
    /// from the delta's text, with the same result as a read from the
    /// start; what a first event leaves as the prefix is as documented.
    #[test]
    fn prefix_reads_as_from_the_start() {
        #[rustfmt::skip]
        let cases: [Resume; 14] = [
            ("thinking", r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user"}      }"#, r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" have"}}"#, r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"#),
            ("input json", r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#, r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{"a": 1}"}}"#, r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"#),
            ("spaces", r#" { "index" : 2 , "delta" : { "type" : "text_delta" , "text" : "a" } , "type" : "content_block_delta" } "#, r#" { "index" : 2 , "delta" : { "type" : "text_delta" , "text" : "b" , "text" : null } , "type" : "x" } "#, r#" { "index" : 2 , "delta" : { "type" : "text_delta" , "text" :"#),
            ("members after the text", r#"{"type":"a","delta":{"text":"x","type":"t"},"index":3}"#, r#"{"type":"a","delta":{"text":"y","signature":"s"},"index":null,"type":"b"}"#, r#"{"type":"a","delta":{"text":"#),
            ("repeated type and index", r#"{"type":"a","type":"b","index":1,"index":null,"delta":{"type":null,"type":"t","signature":"s"}}"#, r#"{"type":"a","type":"b","index":1,"index":null,"delta":{"type":null,"type":"t","signature":"z"}}"#, r#"{"type":"a","type":"b","index":1,"index":null,"delta":{"type":null,"type":"t","signature":"#),
            ("null types", r#"{"type":null,"delta":{"type":null,"thinking":"x"}}"#, r#"{"type":null,"delta":{"type":null,"thinking":"q"}}"#, r#"{"type":null,"delta":{"type":null,"thinking":"#),
            ("another member first", r#"{"type":"a","x":1,"delta":{"text":"x"}}"#, r#"{"type":"a","x":1,"delta":{"text":"y"}}"#, ""),
            ("another delta member first", r#"{"delta":{"stop_reason":"s","text":"x"}}"#, r#"{"delta":{"stop_reason":"s","text":"y"}}"#, ""),
            ("null delta first", r#"{"delta":null,"delta":{"text":"x"}}"#, r#"{"delta":null,"delta":{"text":"y"}}"#, ""),
            ("no text", r#"{"type":"content_block_stop","index":0}"#, r#"{"type":"content_block_stop","index":0}"#, ""),
            ("same prefix, bad rest", r#"{"delta":{"text":"x"}}"#, r#"{"delta":{"text":"x"},}"#, r#"{"delta":{"text":"#),
            ("same prefix, number text", r#"{"delta":{"text":"x"}}"#, r#"{"delta":{"text":5}}"#, r#"{"delta":{"text":"#),
            ("same prefix, nothing after", r#"{"delta":{"text":"x"}}"#, r#"{"delta":{"text":"#, r#"{"delta":{"text":"#),
            ("another index", r#"{"index":0,"delta":{"text":"x"}}"#, r#"{"index":1,"delta":{"text":"x"}}"#, r#"{"index":0,"delta":{"text":"#),
        ];
        resumes(&cases, &fast_after, &|p: &Prefix| &p.bytes, &general, &|_| false);
    }

    /// Every event of every recorded Anthropic stream (the .sse files of
    /// plugins-src/providers/testdata/fixtures/anthropic, found from the
    /// working directory up to the repository root) is read
    /// fast, apart from in-stream errors, and as the general reader reads
    /// it, from the start and after the prefix the stream's events before
    /// it left.
    #[test]
    fn reads_every_recorded_event_fast() {
        let mut dir = std::env::current_dir().expect("working directory");
        while !dir.join("go.work").exists() {
            assert!(dir.pop(), "no go.work above the working directory; run the tests inside the Smith repository");
        }
        let root = dir.join("plugins-src/providers/testdata/fixtures/anthropic");
        let entries =
            std::fs::read_dir(&root).unwrap_or_else(|e| panic!("fixtures not found at {}: {}", root.display(), e));
        let (mut events, mut resumed) = (0, 0);
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.extension().map_or(true, |x| x != "sse") {
                continue;
            }
            let body = std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {}", path.display(), e));
            let mut prefix = Prefix::default();
            let lines = body.split(|&c| c == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
            for d in lines.filter_map(|l| l.strip_prefix(b"data:")) {
                let data = d.strip_prefix(b" ").unwrap_or(d);
                let text = format!("{}: event {}", path.display(), String::from_utf8_lossy(data));
                if text.contains(r#""error":{"#) {
                    assert_eq!(fast(data), None, "{} read fast", text);
                    continue;
                }
                events += 1;
                assert_eq!(fast(data).map(Ok), Some(general(data)), "{}", text);
                // In the stream's order, after the prefix the events
                // before it left.
                let held = &prefix.bytes;
                resumed += usize::from(!held.is_empty() && data.starts_with(held) && data.len() > held.len());
                assert_eq!(fast_after(data, &mut prefix).map(Ok), Some(general(data)), "{} after a prefix", text);
            }
        }
        assert!(events >= 100, "only {} recorded events under {}", events, root.display());
        // Half the recorded events are deltas that follow one of their
        // block that began alike (93 of 185 when this was written).
        assert!(resumed >= 90, "only {} of {} recorded events began as the one before", resumed, events);
    }

    /// Where the fast reader reads a text, it reads what Event::read
    /// reads; it gives up on what it must not decide.
    #[test]
    fn reads_as_the_general_reader() {
        let cases = [
            Case { name: "text delta", data: r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}"#, fast: true },
            Case { name: "thinking delta, trailing spaces", data: r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" weather"}       }"#, fast: true },
            Case { name: "input json delta", data: r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"Flo"}}"#, fast: true },
            Case { name: "signature delta", data: r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCkgIAhABGAIiQL+/"}}"#, fast: true },
            Case { name: "message start", data: r#"{"type":"message_start","message":{"model":"claude-sonnet-4-20250514","id":"msg_01KTBB57","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":424,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":5,"service_tier":"standard"}}       }"#, fast: true },
            Case { name: "content block start", data: r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{}}}"#, fast: true },
            Case { name: "server block start", data: r#"{"type":"content_block_start","index":2,"content_block":{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"bash_code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[[1,[true,false]],null,-1.5e-3]}}}"#, fast: true },
            Case { name: "message delta", data: r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":187,"server_tool_use":{"web_search_requests":1}}}"#, fast: true },
            Case { name: "stop and ping", data: r#"{"type": "ping" , "index" : 3}"#, fast: true },
            Case { name: "spaces everywhere", data: " {\"type\" : \"content_block_delta\" ,\n\"index\" :\t2 , \"delta\" : { \"type\" : \"text_delta\" , \"text\" : \"x\" } , \"usage\" : { \"a\" : [ 1 , { } , [ ] ] } } \r\n", fast: true },
            Case { name: "escapes and utf-8 in values", data: r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_\u0064elta","text":"\u00e9t\u00e9 é\n\ud83d\ude00"}}"#, fast: true },
            Case { name: "utf-8 and escaped keys inside raw values", data: r#"{"usage":{"\u0069nput_tokens":1,"ïd":"x"},"content_block":{"\"":[]}}"#, fast: true },
            Case { name: "utf-8 key matches nothing", data: r#"{"týpe":"x","type":"y"}"#, fast: true },
            Case { name: "nulls", data: r#"{"type":null,"index":null,"message":null,"delta":null,"content_block":null,"usage":null,"error":null}"#, fast: true },
            Case { name: "null fields", data: r#"{"type":"message_start","message":{"id":null,"model":null,"usage":null},"delta":{"type":null,"text":null,"thinking":null,"signature":null,"partial_json":null,"stop_reason":null}}"#, fast: true },
            Case { name: "scalar raw values", data: r#"{"usage":5,"content_block":"x","message":{"usage":true}}"#, fast: true },
            Case { name: "repeats: last wins, nested fields accumulate", data: r#"{"type":"a","message":{"id":"x"},"message":{"model":"m"},"index":1,"index":null,"type":"b","delta":{"text":"t"},"delta":null,"usage":{},"usage":[1]}"#, fast: true },
            Case { name: "negative and zero index", data: r#"{"index":-12,"index":-0,"index":0}"#, fast: true },
            Case { name: "numbers and literals skipped", data: r#"{"a":-0.5e+10,"b":true,"c":false,"d":null,"e":0,"f":12.25E-3,"g":{"h":[{}]}}"#, fast: true },
            Case { name: "empty object", data: "{}", fast: true },
            Case { name: "error object", data: r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, fast: false },
            Case { name: "error of the wrong kind", data: r#"{"type":"error","error":"x"}"#, fast: false },
            Case { name: "escaped key", data: r#"{"\u0074ype":"x"}"#, fast: false },
            Case { name: "escaped delta key", data: r#"{"delta":{"te\u0078t":"x"}}"#, fast: false },
            Case { name: "wrong type", data: r#"{"type":5}"#, fast: false },
            Case { name: "message not an object", data: r#"{"message":"m"}"#, fast: false },
            Case { name: "delta not an object", data: r#"{"delta":[]}"#, fast: false },
            Case { name: "fraction index", data: r#"{"index":1.5}"#, fast: false },
            Case { name: "exponent index", data: r#"{"index":1e2}"#, fast: false },
            Case { name: "huge index", data: r#"{"index":9223372036854775807}"#, fast: false },
            Case { name: "string index", data: r#"{"index":"1"}"#, fast: false },
            Case { name: "deep raw value", data: &*Box::leak(format!("{{\"usage\":{}{}}}", "[".repeat(65), "]".repeat(65)).into_boxed_str()), fast: false },
            Case { name: "leading zero", data: r#"{"a":01}"#, fast: false },
            Case { name: "trailing comma", data: r#"{"a":1,}"#, fast: false },
            Case { name: "trailing comma in a raw value", data: r#"{"usage":{"a":[1,]}}"#, fast: false },
            Case { name: "mismatched close in a raw value", data: r#"{"usage":{"a":[1}]}"#, fast: false },
            Case { name: "trailing text", data: r#"{"a":1} x"#, fast: false },
            Case { name: "truncated", data: r#"{"type":"abc"#, fast: false },
            Case { name: "bad literal", data: r#"{"a":nul}"#, fast: false },
            Case { name: "not an object", data: "null", fast: false },
            Case { name: "control character", data: "{\"type\":\"a\u{1}\"}", fast: false },
        ];
        compare(&cases, b"\"1{],n\\", &fast_after, &general);
    }
}
