//! fastread reads the chunks Gemini servers send nearly always — compact
//! or lightly spaced JSON with unescaped keys, text, thought and
//! function-call parts, a usageMetadata of counts — into a [`Chunk`] and
//! its first candidate's [`Part`]s in one pass, without the general
//! reader's callbacks: one [`Cursor`] whose offset stays in a register. It is
//! the decoder's fast path in wasm, where every call, every loop entered (a
//! fuel charge) and every load and store of a reader kept in memory (a
//! bounds check) costs; it also reads each part and the usage object once,
//! where the general path reads them again from their raw text.
//!
//! It never decides anything the general reader (`read_chunk`, then
//! `read_part` for each part and `UsageState::merge` for the usage) would
//! decide differently: where a text is not what it expects (a syntax
//! error, a type a field does not take, an escaped key, a part of another
//! kind or one the general reader would ignore, a promptFeedback, a
//! non-null error, an integer it would have to think about, containers
//! nested more than 64 deep in a skipped value) it gives up with None, and
//! the decoder reads the text again with the general reader, which accepts
//! or rejects it. What it reads it reads as the general reader does
//! (tested in this file and by the fuzz targets).
//!
//! A prefix memo like openai-chat's does not apply: Gemini's repeated
//! members (usageMetadata, modelVersion, responseId) follow the
//! candidates, which change from chunk to chunk.

use super::{Chunk, Part, PartialArg, WireCall};
use smith_json::read::{Cursor, Str};

/// read reads data into c and parts, which must be empty (as
/// `read_chunk` leaves them before reading): the first candidate's parts
/// go to parts, each read as `read_part` reads it, and the counts of an
/// object usageMetadata to `c.counts`. None means: read it with the
/// general reader; c and parts then hold a partial read, which the caller
/// discards.
pub(super) fn read<'a>(c: &mut Chunk<'a>, data: &'a [u8], parts: &mut Vec<Part<'a>>) -> Option<()> {
    let mut r = Cursor { data, pos: 0 };
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"candidates" => {
                c.candidates = 0;
                c.has_content = false;
                c.finish_reason = Str::default();
                parts.clear();
                if r.null()?.is_none() {
                    let mut more = r.open(b'[', b']')?;
                    while more {
                        let first = c.candidates == 0;
                        c.candidates += 1;
                        candidate(&mut r, c, parts, first)?;
                        more = r.next(b']')?;
                    }
                }
            }
            b"usageMetadata" => usage(&mut r, c)?,
            b"modelVersion" => c.model_version = r.str()?,
            b"responseId" => c.response_id = r.str()?,
            b"error" => c.err = Some(r.null()??),
            b"promptFeedback" => return None,
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    r.space();
    if r.pos != data.len() {
        return None;
    }
    Some(())
}

/// candidate reads one element of candidates; only the first one's
/// content and finishReason are kept, but every one is read (and
/// type-checked) as the general reader reads it.
fn candidate<'a>(r: &mut Cursor<'a>, c: &mut Chunk<'a>, parts: &mut Vec<Part<'a>>, first: bool) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"content" => {
                let has = r.peek()? == b'{';
                if first {
                    c.has_content = has;
                }
                if r.null()?.is_none() {
                    let mut more = r.open(b'{', b'}')?;
                    while more {
                        match r.key()? {
                            b"parts" => {
                                if first {
                                    parts.clear();
                                }
                                if r.null()?.is_none() {
                                    let mut more = r.open(b'[', b']')?;
                                    while more {
                                        if first {
                                            parts.push(Part::default());
                                            part(r, parts.last_mut()?)?;
                                        } else {
                                            r.skip()?;
                                        }
                                        more = r.next(b']')?;
                                    }
                                }
                            }
                            _ => r.skip()?,
                        }
                        more = r.next(b'}')?;
                    }
                }
            }
            b"finishReason" => {
                let v = r.str()?;
                if first {
                    c.finish_reason = v;
                }
            }
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

/// part reads a text, thought or function-call part as `read_part` does;
/// a part of another kind (or null, which is one) gives up, so that the
/// general reader names its kind.
fn part<'a>(r: &mut Cursor<'a>, p: &mut Part<'a>) -> Option<()> {
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"text" => p.text = r.str()?,
            b"thought" => p.thought = r.bool()?,
            b"thoughtSignature" => p.signature = r.str()?,
            b"functionCall" => {
                p.call = r.peek()? == b'{';
                if r.null()?.is_none() {
                    call(r, &mut p.fc)?;
                }
            }
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    if !p.call && p.text.is_nil() {
        return None;
    }
    Some(())
}

/// call reads a functionCall object into fc, which a repeated
/// functionCall member reads on into, as `read_call` does.
fn call<'a>(r: &mut Cursor<'a>, fc: &mut WireCall<'a>) -> Option<()> {
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"id" => fc.id = r.str()?.string(),
            b"name" => fc.name = r.str()?.string(),
            b"args" => fc.args = Some(r.value()?),
            b"willContinue" => fc.will_continue = r.bool()?,
            b"partialArgs" => {
                fc.partial_args.clear();
                if r.null()?.is_none() {
                    let mut more = r.open(b'[', b']')?;
                    while more {
                        let mut a = PartialArg::default();
                        partial(r, &mut a)?;
                        fc.partial_args.push(a);
                        more = r.next(b']')?;
                    }
                }
            }
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

/// partial reads one element of partialArgs as `read_partial` does.
fn partial<'a>(r: &mut Cursor<'a>, a: &mut PartialArg<'a>) -> Option<()> {
    if r.null()?.is_some() {
        return Some(());
    }
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"jsonPath" => a.json_path = r.str()?.string(),
            b"stringValue" => {
                let v = r.str()?;
                a.string_value = if v.is_nil() { None } else { Some(v.string()) };
            }
            b"numberValue" => a.number_value = Some(r.value()?),
            b"boolValue" => a.bool_value = if r.null()?.is_some() { None } else { Some(r.bool()?) },
            b"willContinue" => a.will_continue = r.bool()?,
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    Some(())
}

/// usage reads usageMetadata: null is kept as the general reader keeps
/// it; an object's text goes to `c.usage` and its counts to `c.counts`,
/// as `UsageState::merge` would take them. A count that is not null or an
/// integer of at most 18 digits, or a value of another kind, gives up.
fn usage<'a>(r: &mut Cursor<'a>, c: &mut Chunk<'a>) -> Option<()> {
    if let Some(null) = r.null()? {
        c.usage = Some(null);
        c.counts = None;
        return Some(());
    }
    let start = r.pos;
    let mut n = [None; 5];
    let mut more = r.open(b'{', b'}')?;
    while more {
        let i = match r.key()? {
            b"promptTokenCount" => 0,
            b"candidatesTokenCount" => 1,
            b"thoughtsTokenCount" => 2,
            b"cachedContentTokenCount" => 3,
            b"toolUsePromptTokenCount" => 4,
            _ => 5,
        };
        match n.get_mut(i) {
            Some(v) => *v = r.int()?,
            None => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    c.usage = Some(r.data.get(start..r.pos)?);
    c.counts = Some(n);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::{read_chunk, read_part, recycle, usage::UsageState, Chunk, Part};
    use super::read;
    use crate::fasttest::{compare, Case};

    /// chunk renders what a reader read of a chunk but its parts, with
    /// what the decoder's usage state holds after taking its usage as the
    /// decoder takes it.
    fn chunk(c: &Chunk) -> String {
        let mut u = UsageState::default();
        match (c.counts, c.usage) {
            (Some(counts), Some(raw)) => u.take(raw, counts),
            _ => u.merge(c.usage),
        }
        let usage = (u.result(), String::from_utf8_lossy(&u.raw));
        let reads = (&c.candidates, &c.has_content, &c.finish_reason, &c.has_feedback, &c.block_reason);
        let ids = (&c.model_version, &c.response_id, &c.err);
        format!("{:?} {:?} usage {:?}\n", reads, ids, usage)
    }

    /// part renders a part as the decoder uses it.
    fn part(p: &Part) -> String {
        format!("part {:?}\n", (&p.text, &p.thought, &p.signature, &p.call, &p.fc))
    }

    /// general reads data with the general reader and renders it, each
    /// part read from its raw text as the decoder reads it; Err is the
    /// chunk's error. A part the general reader ignores or names by its
    /// kind renders as such, which the fast reader never reads.
    fn general(data: &[u8]) -> Result<String, String> {
        let mut ranges = Vec::new();
        let c = read_chunk(data, &mut ranges).map_err(|e| e.to_string())?;
        let mut s = chunk(&c);
        let mut kind = Vec::new();
        for &(a, b) in &ranges {
            match read_part(&data[a..b], &mut kind) {
                Ok(p) if p.call || !p.text.is_nil() => s.push_str(&part(&p)),
                Ok(_) => s.push_str("another kind of part\n"),
                Err(e) => s.push_str(&format!("part error {}\n", e)),
            }
        }
        Ok(s)
    }

    /// fast reads data with the fast reader and renders it as general
    /// does; None when it gives up.
    fn fast(data: &[u8]) -> Option<String> {
        let mut c = Chunk::default();
        let mut parts = Vec::new();
        read(&mut c, data, &mut parts)?;
        Some(parts.iter().fold(chunk(&c), |s, p| s + &part(p)))
    }

    /// Where the fast reader reads a text, it reads what the general
    /// reader reads; it gives up on what it must not decide. The recorded
    /// chunks (data lines of recorded Gemini responses, copied here as the
    /// shapes the fast reader is for) are read fast.
    #[test]
    fn reads_as_the_general_reader() {
        let cases = [
            Case { name: "text with spaces, as Google sends it", data: r#"{"candidates": [{"content": {"parts": [{"text": " it's quite hot!"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 95,"candidatesTokenCount": 29,"totalTokenCount": 192,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 95}],"thoughtsTokenCount": 68},"modelVersion": "gemini-3.1-pro-preview","responseId": "ywCzae2oL5ODz7IP29qJmQw"}"#, fast: true },
            Case { name: "thought", data: r#"{"candidates":[{"content":{"parts":[{"text":"**Plan**\n\n\"x\" \u00e9 é","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":54,"totalTokenCount":116,"thoughtsTokenCount":62},"modelVersion":"gemini-2.5-flash","responseId":"zw"}"#, fast: true },
            Case { name: "trailing signature and finish", data: r#"{"candidates":[{"content":{"parts":[{"text":"","thoughtSignature":"EtAC+/=="}],"role":"model"},"finishReason":"STOP","index":0,"finishMessage":"m"}],"usageMetadata":{"promptTokenCount":189,"cachedContentTokenCount":-3,"toolUsePromptTokenCount":0}}"#, fast: true },
            Case { name: "parallel calls", data: r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"add","args":{"b":3,"a":[2,{"x":null,"y":[]},{}]}},"thoughtSignature":"Cl"},{"functionCall":{"name":"multiply","args":{"a":2,"b":3},"id":"c\n2"}}],"role":"model"},"finishReason":"STOP","index":0}]}"#, fast: true },
            Case { name: "vertex call start", data: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"getWeather","willContinue":true},"thoughtSignature":"CiMB"}]}}],"usageMetadata":{"trafficType":"ON_DEMAND"},"modelVersion":"gemini-3.1-pro-preview","createTime":"2026-04-02T17:03:50.399550Z","responseId":"dqHO"}"#, fast: true },
            Case { name: "vertex partial args", data: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"Boston","willContinue":true},{"jsonPath":"$.n","numberValue":1.5e3},{"jsonPath":"$.b","boolValue":false,"x":{}},{"jsonPath":"$.c","boolValue":null,"nullValue":null},null],"willContinue":true}}]}}],"usageMetadata":{"trafficType":"ON_DEMAND"}}"#, fast: true },
            Case { name: "vertex call end", data: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":26,"candidatesTokenCount":23,"trafficType":"ON_DEMAND","promptTokensDetails":[{"modality":"TEXT","tokenCount":26}]}}"#, fast: true },
            Case { name: "repeated members, last wins", data: r#"{"candidates":[{"content":{"parts":[{"text":"a","text":null,"text":"b","thought":true,"thought":false,"functionCall":{"name":"f","partialArgs":[{}]},"functionCall":{"args":null,"partialArgs":null}}]},"content":{"x":1},"finishReason":"STOP","finishReason":null}],"usageMetadata":{"promptTokenCount":1},"usageMetadata":{"candidatesTokenCount":2,"candidatesTokenCount":null},"responseId":"a","responseId":null}"#, fast: true },
            Case { name: "candidates replaced and nulled", data: r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}],"candidates":null,"candidates":[null,{"content":null}]}"#, fast: true },
            Case { name: "content null after parts", data: r#"{"candidates":[{"content":{"parts":[{"text":"a"}],"parts":[{"text":"b"}]},"content":null}]}"#, fast: true },
            Case { name: "second candidate read and dropped", data: r#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"STOP"},{"content":{"parts":[{"inlineData":{"data":"AA"}},7,{"text":5}]},"finishReason":"OTHER"}]}"#, fast: true },
            Case { name: "error null, usage null, empty object", data: r#"{"error":null,"usageMetadata":null,"candidates":[]}"#, fast: true },
            Case { name: "spaces everywhere", data: " {\"candidates\" :\r\n[ { \"content\" : { \"parts\" : [ { \"text\" : \"x\" , \"thought\" : null } ] } , \"finishReason\" : \"STOP\" } ] , \"usageMetadata\" : { \"promptTokenCount\" : 3 , \"a\" : [ 1 , { } ] } } \n", fast: true },
            Case { name: "utf-8 key matches nothing", data: r#"{"candidatés":[1],"candidates":[{"content":{"parts":[{"tëxt":{"a":1},"text":"y"}]}}]}"#, fast: true },
            Case { name: "empty", data: "{}", fast: true },
            Case { name: "recorded call", data: r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "weather","args": {"location": "Florence, Italy"},"id": "9d532gc9"},"thoughtSignature": "Eu0DCuoDAb4+9vvdbiOpT/hdj5NfRT0HGI7d3Q7aVsxdntWDDSAKWXd1W9yIApz=="}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 65,"candidatesTokenCount": 16,"totalTokenCount": 175,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 65}],"thoughtsTokenCount": 94},"modelVersion": "gemini-3.1-pro-preview","responseId": "yACzaZiFOp3Uz7IP577z4Qk"}"#, fast: true },
            Case { name: "recorded finish", data: r#"{"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 65,"candidatesTokenCount": 16,"totalTokenCount": 175,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 65}],"thoughtsTokenCount": 94},"modelVersion": "gemini-3.1-pro-preview","responseId": "yACzaZiFOp3Uz7IP577z4Qk"}"#, fast: true },
            Case { name: "recorded vertex call start", data: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":""}],"willContinue":true}}]}}],"usageMetadata":{"trafficType":"ON_DEMAND"},"modelVersion":"gemini-3.1-pro-preview","createTime":"2026-04-02T17:03:50.399550Z","responseId":"dqHOab6xGLzWodAPkPuViA4"}"#, fast: true },
            Case { name: "recorded vertex call end", data: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":26,"candidatesTokenCount":23,"totalTokenCount":181,"trafficType":"ON_DEMAND","promptTokensDetails":[{"modality":"TEXT","tokenCount":26}],"candidatesTokensDetails":[{"modality":"TEXT","tokenCount":23}],"thoughtsTokenCount":132},"modelVersion":"gemini-3.1-pro-preview","createTime":"2026-04-02T17:03:50.399550Z","responseId":"dqHOab6xGLzWodAPkPuViA4"}"#, fast: true },
            Case { name: "another kind of part", data: r#"{"candidates":[{"content":{"parts":[{"thoughtSignature":"s","inlineData":{"mimeType":"image/png","data":"AA"}}]}}]}"#, fast: false },
            Case { name: "empty part", data: r#"{"candidates":[{"content":{"parts":[{}]}}]}"#, fast: false },
            Case { name: "null part", data: r#"{"candidates":[{"content":{"parts":[null]}}]}"#, fast: false },
            Case { name: "part of the wrong type", data: r#"{"candidates":[{"content":{"parts":[7]}}]}"#, fast: false },
            Case { name: "text of the wrong type", data: r#"{"candidates":[{"content":{"parts":[{"text":5}]}}]}"#, fast: false },
            Case { name: "bad partial arg", data: r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"w","partialArgs":[{"boolValue":"no"}]}}]}}]}"#, fast: false },
            Case { name: "functionCall of the wrong type", data: r#"{"candidates":[{"content":{"parts":[{"functionCall":[],"text":"t"}]}}]}"#, fast: false },
            Case { name: "prompt feedback", data: r#"{"promptFeedback":{"blockReason":"SAFETY"}}"#, fast: false },
            Case { name: "error", data: r#"{"error":{"code":503,"status":"UNAVAILABLE"}}"#, fast: false },
            Case { name: "usage of the wrong type", data: r#"{"usageMetadata":"x"}"#, fast: false },
            Case { name: "fraction count", data: r#"{"usageMetadata":{"promptTokenCount":1.5}}"#, fast: false },
            Case { name: "huge count", data: r#"{"usageMetadata":{"promptTokenCount":9223372036854775807}}"#, fast: false },
            Case { name: "escaped key", data: r#"{"c\u0061ndidates":[]}"#, fast: false },
            Case { name: "candidates of the wrong type", data: r#"{"candidates":{}}"#, fast: false },
            Case { name: "deep skipped value", data: r#"{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#, fast: false },
            Case { name: "leading zero", data: r#"{"a":01}"#, fast: false },
            Case { name: "trailing comma", data: r#"{"a":[1,]}"#, fast: false },
            Case { name: "trailing text", data: r#"{"a":1} x"#, fast: false },
            Case { name: "truncated", data: r#"{"candidates":[{"content":{"parts":[{"text":"abc"#, fast: false },
            Case { name: "bad literal", data: r#"{"a":{"b":nul}}"#, fast: false },
            Case { name: "not an object", data: "null", fast: false },
            Case { name: "control character", data: "{\"responseId\":\"a\u{1}\"}", fast: false },
        ];
        compare(&cases, b"\"1}", &|d, _: &mut ()| fast(d), &general);
    }

    /// recycle hands the parts' buffer on, emptied, without allocating
    /// another.
    #[test]
    fn recycle_keeps_the_buffer() {
        let mut parts: Vec<Part<'static>> = Vec::with_capacity(4);
        parts.push(Part::default());
        let at = parts.as_ptr() as usize;
        let text = br#""x""#.to_vec();
        let mut again: Vec<Part<'_>> = recycle(parts);
        assert!(again.is_empty());
        assert_eq!((again.as_ptr() as usize, again.capacity()), (at, 4));
        // The recycled buffer holds parts borrowing a shorter-lived text.
        again.push(Part {
            text: smith_json::read::Str::at(&text, 0).map(|s| s.0).unwrap_or_default(),
            ..Part::default()
        });
        let back: Vec<Part<'static>> = recycle(again);
        assert_eq!((back.len(), back.as_ptr() as usize, back.capacity()), (0, at, 4));
    }
}
