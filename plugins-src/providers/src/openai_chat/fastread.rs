//! fastread reads the chunks servers send nearly always — compact JSON,
//! unescaped keys, scalar or null values where the decoder skips or keeps
//! a raw value — into a [`Chunk`] without the general reader's callbacks:
//! one [`Cursor`] whose offset stays in a register. It is the decoder's fast
//! path in wasm, where every call, every loop entered (a fuel charge) and
//! every load and store of a reader kept in memory (a bounds check) costs.
//!
//! It never decides anything the general reader ([`Chunk::read`]) would
//! decide differently: where a text is not what it expects (a syntax
//! error, a type the field does not take, an escaped key, a nested value
//! it would have to skip or keep raw, an integer it would have to think
//! about) it gives up with None, and the decoder reads the text again
//! with `Chunk::read`, which accepts or rejects it. What it reads it reads
//! as `Chunk::read` does (tested in this file and by the fuzz targets).

use super::{Choice, Chunk, Delta, Detail, ToolCall};
use smith_json::read::{same_bytes, Cursor, Str};

/// Prefix remembers how the last chunk read in full began: its members
/// before the first one that is not an id, a model or a skipped scalar
/// (`{"id":"…","object":"chat.completion.chunk","created":…,"model":"…",
/// "system_fingerprint":"…",` — every chunk of a Chat Completions stream
/// repeats them), as bytes, with where the id and model strings start. A
/// chunk that begins with the same bytes reads the same up to there, so
/// [`read`] takes the two strings at the same offsets and goes on after
/// them instead of reading the members again. Empty at first.
#[derive(Default)]
pub(super) struct Prefix {
    bytes: Vec<u8>,
    id: Option<usize>,
    model: Option<usize>,
}

/// read reads data into c, which must be empty (as `Chunk::read` leaves
/// it before reading), taking up where `prefix` says a chunk that begins
/// as the last one did stops differing; a chunk read in full from the
/// start becomes the new prefix. None means: read it with `Chunk::read`;
/// c then holds a partial read, which `Chunk::read` discards.
pub(super) fn read<'a>(c: &mut Chunk<'a>, data: &'a [u8], prefix: &mut Prefix) -> Option<()> {
    let mut r = Cursor { data, pos: 0 };
    let mut more = true;
    // recording: reading from the start and, so far, only members a
    // prefix may hold; (end, id, model) is the prefix that far, and
    // (id_now, model_now) where the last id and model read start.
    let mut recording = false;
    let (mut end, mut id, mut model) = (0, None, None);
    let (mut id_now, mut model_now) = (None, None);
    if !prefix.bytes.is_empty()
        && data.len() > prefix.bytes.len()
        && same_bytes(&data[..prefix.bytes.len()], &prefix.bytes)
    {
        if let Some(at) = prefix.id {
            c.id = Str::at(data, at)?.0;
        }
        if let Some(at) = prefix.model {
            c.model = Str::at(data, at)?.0;
        }
        r.pos = prefix.bytes.len();
    } else {
        more = r.open(b'{', b'}')?;
        recording = true;
    }
    while more {
        let key = r.key()?;
        r.space();
        let at = r.pos;
        let mut plain = recording;
        match key {
            b"id" => {
                c.id = r.str()?;
                plain = plain && !c.id.is_nil();
                if plain {
                    id_now = Some(at);
                }
            }
            b"model" => {
                c.model = r.str()?;
                plain = plain && !c.model.is_nil();
                if plain {
                    model_now = Some(at);
                }
            }
            b"choices" => {
                plain = false;
                c.choices.clear();
                if r.null()?.is_none() {
                    let mut more = r.open(b'[', b']')?;
                    while more {
                        c.choices.push(Choice::default());
                        let ch = c.choices.last_mut()?;
                        choice(&mut r, ch, &mut c.details, &mut c.calls)?;
                        more = r.next(b']')?;
                    }
                }
            }
            b"usage" => {
                plain = false;
                c.usage = Some(r.null()??);
            }
            b"x_groq" => return None,
            b"error" => {
                plain = false;
                c.err = Some(r.null()??);
            }
            _ => r.scalar()?,
        }
        more = r.next(b'}')?;
        recording = plain && more;
        if recording {
            (end, id, model) = (r.pos, id_now, model_now);
        }
    }
    r.space();
    if r.pos != data.len() {
        return None;
    }
    if end != 0 {
        // Read in full from the start: its members up to end are the
        // prefix the next chunk is compared with.
        prefix.bytes.clear();
        prefix.bytes.extend_from_slice(&data[..end]);
        prefix.id = id;
        prefix.model = model;
    }
    Some(())
}

fn choice<'a>(
    r: &mut Cursor<'a>,
    ch: &mut Choice<'a>,
    details: &mut Vec<Detail<'a>>,
    calls: &mut Vec<ToolCall<'a>>,
) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"delta" => delta(r, &mut ch.delta, details, calls)?,
            b"finish_reason" => ch.finish_reason = r.str()?,
            b"usage" => ch.usage = Some(r.null()??),
            _ => r.scalar()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

fn delta<'a>(
    r: &mut Cursor<'a>,
    d: &mut Delta<'a>,
    details: &mut Vec<Detail<'a>>,
    calls: &mut Vec<ToolCall<'a>>,
) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"content" => {
                if r.peek()? == b'"' {
                    d.content_str = r.str()?;
                    d.content = d.content_str.raw();
                } else {
                    d.content_str = Str::default();
                    d.content = Some(r.null()??);
                }
            }
            b"reasoning_content" => d.reasoning_content = r.str()?,
            b"reasoning" => d.reasoning = r.str()?,
            b"reasoning_text" => d.reasoning_text = r.str()?,
            b"reasoning_details" => {
                let start = details.len();
                if r.null()?.is_none() {
                    let mut more = r.open(b'[', b']')?;
                    while more {
                        details.push(Detail::default());
                        detail(r, details.last_mut()?)?;
                        more = r.next(b']')?;
                    }
                }
                d.details = (start, details.len());
            }
            b"tool_calls" => {
                let start = calls.len();
                if r.null()?.is_none() {
                    let mut more = r.open(b'[', b']')?;
                    while more {
                        calls.push(ToolCall::default());
                        tool_call(r, calls.last_mut()?)?;
                        more = r.next(b']')?;
                    }
                }
                d.calls = (start, calls.len());
            }
            b"refusal" => d.refusal = r.str()?,
            _ => r.scalar()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

fn detail<'a>(r: &mut Cursor<'a>, rd: &mut Detail<'a>) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"type" => rd.typ = r.str()?,
            b"text" => rd.text = r.str()?,
            b"summary" => rd.summary = r.str()?,
            b"signature" => rd.signature = r.str()?,
            b"data" => rd.data = r.str()?,
            b"format" => rd.format = r.str()?,
            _ => r.scalar()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

fn tool_call<'a>(r: &mut Cursor<'a>, tc: &mut ToolCall<'a>) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"index" => tc.index = r.int()?,
            b"id" => tc.id = r.str()?,
            b"function" => {
                if r.null()?.is_none() {
                    let mut more = r.open(b'{', b'}')?;
                    while more {
                        match r.key()? {
                            b"name" => tc.name = r.str()?,
                            b"arguments" => tc.args = r.str()?,
                            _ => r.scalar()?,
                        }
                        more = r.next(b'}')?;
                    }
                }
            }
            _ => r.scalar()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::{Chunk, Delta};
    use super::{read, Prefix};
    use crate::fasttest::{compare, resumes, Case, Resume};

    /// general reads data with the general reader, rendering what it read.
    fn general(data: &[u8]) -> Result<String, String> {
        let mut c = Chunk::default();
        c.read(data).map(|()| text(&c)).map_err(|e| format!("{:?}", e))
    }

    /// fast_after reads data with the fast reader after prefix, rendering
    /// what it read (None when it gives up).
    fn fast_after(data: &[u8], prefix: &mut Prefix) -> Option<String> {
        let mut c = Chunk::default();
        read(&mut c, data, prefix).map(|()| text(&c))
    }

    /// text renders what a reader read, field by field.
    fn text<'a>(c: &Chunk<'a>) -> String {
        let d =
            |d: Delta<'a>| (d.content, d.content_str, d.reasoning_content, d.reasoning, d.reasoning_text, d.refusal);
        let choices: Vec<_> =
            c.choices.iter().map(|h| (h.finish_reason, h.usage, d(h.delta), h.delta.details, h.delta.calls)).collect();
        let details: Vec<_> =
            c.details.iter().map(|rd| (rd.typ, rd.text, rd.summary, rd.signature, rd.data, rd.format)).collect();
        let calls: Vec<_> = c.calls.iter().map(|tc| (tc.index, tc.id, tc.name, tc.args)).collect();
        format!("{:?}", (c.id, c.model, c.usage, c.groq_usage, &c.err, choices, details, calls))
    }

    /// A chunk that begins as the last one read in full did is read from
    /// where their members stop being ids, models and skipped scalars,
    /// with the same result as a read from the start.
    #[test]
    fn prefix_reads_as_from_the_start() {
        #[rustfmt::skip]
        let cases: [Resume; 11] = [
            ("deepseek", r#"{"id":"f6","object":"chat.completion.chunk","created":17,"model":"deepseek-chat","system_fingerprint":"fp_e","choices":[{"index":0,"delta":{"content":"a"}}]}"#, r#"{"id":"f6","object":"chat.completion.chunk","created":17,"model":"deepseek-chat","system_fingerprint":"fp_e","choices":[{"index":0,"delta":{"content":"b"}}],"usage":null}"#, r#"{"id":"f6","object":"chat.completion.chunk","created":17,"model":"deepseek-chat","system_fingerprint":"fp_e","#),
            ("spaces", r#"{ "id" : "a" , "model" : "m" , "choices" : [ ] }"#, r#"{ "id" : "a" , "model" : "m" , "choices" : [ { "delta" : { "content" : "x" } } ] }"#, r#"{ "id" : "a" , "model" : "m" ,"#),
            ("id again after choices", r#"{"id":"a","choices":[],"id":"b"}"#, r#"{"id":"a","choices":[{"delta":{"content":"x"}}]}"#, r#"{"id":"a","#),
            ("model again", r#"{"model":"m","x":1,"model":"n","choices":null}"#, r#"{"model":"m","x":1,"model":"n","choices":[]}"#, r#"{"model":"m","x":1,"model":"n","#),
            ("null id ends the prefix", r#"{"object":"o","id":null,"choices":[]}"#, r#"{"object":"o","id":"q","choices":[]}"#, r#"{"object":"o","#),
            ("usage first", r#"{"usage":null,"id":"a"}"#, r#"{"usage":null,"id":"b"}"#, ""),
            ("only plain members", r#"{"id":"a","model":"m"}"#, r#"{"id":"a","model":"m","choices":[]}"#, r#"{"id":"a","#),
            ("same prefix, bad rest", r#"{"id":"a","choices":[]}"#, r#"{"id":"a","choices":[}"#, r#"{"id":"a","#),
            ("same prefix, nothing after", r#"{"id":"a","choices":[]}"#, r#"{"id":"a","#, r#"{"id":"a","#),
            ("last member not in the prefix", r#"{"id":"a","id":"b"}"#, r#"{"id":"a","choices":[]}"#, r#"{"id":"a","#),
            ("another id", r#"{"id":"a","choices":[]}"#, r#"{"id":"b","choices":[]}"#, r#"{"id":"a","#),
        ];
        // A chunk with a usage object after the prefix is for the general
        // reader.
        resumes(&cases, &fast_after, &|p: &Prefix| &p.bytes, &general, &|next| next.contains("usage\":{"));
    }

    /// Where the fast reader reads a text, it reads what Chunk::read
    /// reads; it gives up on what it must not decide.
    #[test]
    fn reads_as_the_general_reader() {
        let cases = [
            Case { name: "deepseek content", data: r#"{"id":"f6117a0b","object":"chat.completion.chunk","created":1764657993,"model":"deepseek-chat","system_fingerprint":"fp_eaab8d114b","choices":[{"index":0,"delta":{"content":" **"},"logprobs":null,"finish_reason":null}],"usage":null}"#, fast: true },
            Case { name: "spaces everywhere", data: " {\"id\" : \"x\" ,\n\"choices\" : [ { \"delta\" : { \"content\" : null } , \"finish_reason\" : \"stop\" } ] } \r\n", fast: true },
            Case { name: "escapes and utf-8 in values", data: r#"{"id":"a\"b","choices":[{"delta":{"reasoning_content":"\u00e9t\u00e9 é","refusal":"no\n"}}]}"#, fast: true },
            Case { name: "utf-8 key matches nothing", data: r#"{"ïd":"x","id":"y"}"#, fast: true },
            Case { name: "numbers and literals skipped", data: r#"{"a":-0.5e+10,"b":true,"c":false,"d":null,"e":0,"f":12.25E-3,"choices":[]}"#, fast: true },
            Case { name: "tool calls", data: r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"p\":1}"}},{"index":-2,"function":null},null]}}]}"#, fast: true },
            Case { name: "reasoning details", data: r#"{"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.encrypted","data":"abc","format":"f","x":1},{"type":"reasoning.text","text":"t","signature":"s","summary":null}]}}]}"#, fast: true },
            Case { name: "null containers", data: r#"{"choices":null,"usage":null,"error":null}"#, fast: true },
            Case { name: "null choice and delta", data: r#"{"choices":[null,{"delta":null},{"delta":{"tool_calls":null,"reasoning_details":null}}]}"#, fast: true },
            Case { name: "duplicate fields, last wins", data: r#"{"id":"a","id":"b","choices":[{"delta":{"content":"x","content":null}}],"choices":[{"delta":{"content":"y"}}]}"#, fast: true },
            Case { name: "empty object", data: "{}", fast: true },
            Case { name: "usage object", data: r#"{"choices":[],"usage":{"prompt_tokens":1}}"#, fast: false },
            Case { name: "x_groq", data: r#"{"x_groq":{"usage":{"a":1}}}"#, fast: false },
            Case { name: "content parts", data: r#"{"choices":[{"delta":{"content":[{"type":"text","text":"x"}]}}]}"#, fast: false },
            Case { name: "escaped key", data: r#"{"\u0069d":"x"}"#, fast: false },
            Case { name: "nested unknown", data: r#"{"logprobs":{"a":[1]}}"#, fast: false },
            Case { name: "wrong type", data: r#"{"id":5}"#, fast: false },
            Case { name: "fraction index", data: r#"{"choices":[{"delta":{"tool_calls":[{"index":1.5}]}}]}"#, fast: false },
            Case { name: "huge index", data: r#"{"choices":[{"delta":{"tool_calls":[{"index":9223372036854775807}]}}]}"#, fast: false },
            Case { name: "leading zero", data: r#"{"a":01}"#, fast: false },
            Case { name: "trailing comma", data: r#"{"a":1,}"#, fast: false },
            Case { name: "trailing text", data: r#"{"a":1} x"#, fast: false },
            Case { name: "truncated", data: r#"{"id":"abc"#, fast: false },
            Case { name: "bad literal", data: r#"{"a":nul}"#, fast: false },
            Case { name: "not an object", data: "null", fast: false },
            Case { name: "control character", data: "{\"id\":\"a\u{1}\"}", fast: false },
        ];
        compare(&cases, b"\"1", &fast_after, &general);
    }
}
