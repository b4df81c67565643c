//! fastread reads the events of a Responses stream — compact JSON,
//! unescaped keys — into a [`WireEvent`], and the output items of
//! output_item.added and .done into a [`WireItem`], without the general
//! readers' callbacks: one [`Cursor`] whose offset stays in a register. It is
//! the decoder's fast path in wasm, where every call, every loop entered
//! (a fuel charge) and every load and store of a reader kept in memory (a
//! bounds check) costs. The deltas, nearly every event, have only scalar
//! members; the response.* events' response objects and the items it
//! reads member by member, skipping what the decoder does not read.
//!
//! It never decides anything the general readers ([`WireEvent::read`],
//! [`WireItem::read`]) would decide differently: where a text is not what
//! it expects (a syntax error, a type the field does not take, an escaped
//! key of the event, response or item, an error object, containers nested
//! more than 64 deep, an integer it would have to think about) it gives
//! up with None, and the decoder reads the text again with the general
//! reader, which accepts or rejects it. What it reads it reads as they do
//! (tested in this file and by the fuzz targets).
//!
//! The events of one stream share no prefix worth remembering (the
//! sequence number follows the type), so unlike openai_chat's fast reader
//! this one keeps no memo between events.

use super::{WireEvent, WireItem, WireResponse};
use smith_json::read::{Cursor, Str};

/// read reads data as `WireEvent::read` does, or returns None: read it
/// with `WireEvent::read`.
pub(super) fn read(data: &[u8]) -> Option<WireEvent<'_>> {
    let mut r = Cursor { data, pos: 0 };
    let (mut typ, mut item_id, mut delta, mut message) =
        (Str::default(), Str::default(), Str::default(), Str::default());
    let mut summary = 0i64;
    let (mut item, mut code) = (None, None);
    // The response object's members, kept across repeated response keys
    // as the general reader keeps them.
    let mut has_response = false;
    let (mut id, mut model, mut status, mut reason) = (Str::default(), Str::default(), Str::default(), Str::default());
    let (mut usage, mut has_incomplete) = (None, false);
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"type" => typ = r.str()?,
            b"item_id" => item_id = r.str()?,
            b"summary_index" => summary = r.int()?.unwrap_or(0),
            b"delta" => delta = r.str()?,
            b"message" => message = r.str()?,
            // Raw values: kept as text, "null" when null.
            b"code" => code = Some(r.value()?),
            b"item" => item = Some(r.value()?),
            // A null error is no error (and any other value is the
            // general reader's).
            b"error" => {
                r.null()??;
            }
            b"response" => {
                has_response = r.peek()? == b'{';
                if r.null()?.is_none() {
                    let mut more = r.open(b'{', b'}')?;
                    while more {
                        match r.key()? {
                            b"id" => id = r.str()?,
                            b"model" => model = r.str()?,
                            b"status" => status = r.str()?,
                            b"usage" => usage = Some(r.value()?),
                            b"incomplete_details" => {
                                has_incomplete = r.peek()? == b'{';
                                if r.null()?.is_none() {
                                    let mut more = r.open(b'{', b'}')?;
                                    while more {
                                        match r.key()? {
                                            b"reason" => reason = r.str()?,
                                            _ => {
                                                r.value()?;
                                            }
                                        }
                                        more = r.next(b'}')?;
                                    }
                                }
                            }
                            b"error" => {
                                r.null()??;
                            }
                            _ => {
                                r.value()?;
                            }
                        }
                        more = r.next(b'}')?;
                    }
                }
            }
            _ => {
                r.value()?;
            }
        }
        more = r.next(b'}')?;
    }
    r.space();
    if r.pos != data.len() {
        return None;
    }
    let response = if has_response {
        Some(WireResponse {
            id: id.string(),
            model: model.string(),
            status: status.string(),
            usage,
            incomplete_reason: if has_incomplete { Some(reason.string()) } else { None },
            error: None,
        })
    } else {
        None
    };
    Some(WireEvent {
        typ: typ.unquoted(),
        item_id: item_id.unquoted(),
        summary_index: summary,
        delta: delta.string(),
        item,
        response,
        error: None,
        code,
        message: message.string(),
    })
}

/// item reads an output item as `WireItem::read` does, or returns None:
/// read it with `WireItem::read`.
pub(super) fn item(raw: &[u8]) -> Option<WireItem> {
    let mut r = Cursor { data: raw, pos: 0 };
    let (mut typ, mut id, mut call_id, mut name) = (Str::default(), Str::default(), Str::default(), Str::default());
    let (mut args, mut phase, mut enc) = (Str::default(), Str::default(), Str::default());
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"type" => typ = r.str()?,
            b"id" => id = r.str()?,
            b"call_id" => call_id = r.str()?,
            b"name" => name = r.str()?,
            b"arguments" => args = r.str()?,
            b"phase" => phase = r.str()?,
            b"encrypted_content" => enc = r.str()?,
            _ => {
                r.value()?;
            }
        }
        more = r.next(b'}')?;
    }
    r.space();
    if r.pos != raw.len() {
        return None;
    }
    Some(WireItem {
        typ: typ.string(),
        id: id.string(),
        call_id: call_id.string(),
        name: name.string(),
        arguments: args.string(),
        phase: phase.string(),
        encrypted_content: if enc.is_nil() { None } else { Some(enc.string()) },
    })
}

#[cfg(test)]
mod tests {
    use super::super::{WireError, WireEvent, WireItem};
    use super::{item, read};
    use crate::fasttest::{compare, Case};

    /// SUBS are the bytes replacing one of a sample's in its variants.
    const SUBS: &[u8] = b"\"1\\}],\xff";

    /// error renders an error object as the decoder uses it.
    fn error(w: &Option<WireError>) -> String {
        w.as_ref().map_or("none".to_string(), |w| format!("{:?}", (&w.message, &w.typ, &w.code)))
    }

    /// text renders what a reader read, field by field.
    fn text(ev: &WireEvent) -> String {
        let r =
            ev.response.as_ref().map(|r| (&r.id, &r.model, &r.status, r.usage, &r.incomplete_reason, error(&r.error)));
        let e = (&ev.typ, &ev.item_id, ev.summary_index, &ev.delta, &ev.item, error(&ev.error), &ev.code, &ev.message);
        format!("{:?} response {:?}", e, r)
    }

    /// item_text renders an item, field by field.
    fn item_text(it: &WireItem) -> String {
        format!("{:?}", (&it.typ, &it.id, &it.call_id, &it.name, &it.arguments, &it.phase, &it.encrypted_content))
    }

    /// Where the fast reader reads an event, it reads what WireEvent::read
    /// reads; it gives up on what it must not decide.
    #[test]
    fn reads_as_the_general_reader() {
        let cases = [
            Case { name: "summary delta", data: r#"{"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_0183","output_index":0,"summary_index":0,"delta":"**Calcul","obfuscation":"2ajSAGID"}"#, fast: true },
            Case { name: "arguments delta", data: r#"{"type":"response.function_call_arguments.delta","sequence_number":40,"item_id":"fc_0183","output_index":1,"delta":"{\"","obfuscation":"hKtg6o5cWUSdCa"}"#, fast: true },
            Case { name: "text delta", data: r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_0183","output_index":0,"content_index":0,"delta":"The","logprobs":[],"obfuscation":"o6siFnnjPfOpq"}"#, fast: true },
            Case { name: "text done", data: r#"{"type":"response.output_text.done","sequence_number":12,"item_id":"msg_0","output_index":0,"content_index":0,"text":"The final result","logprobs":[ ]}"#, fast: true },
            Case { name: "summary part", data: r#"{"type":"response.reasoning_summary_part.added","item_id":"rs","summary_index":0,"part":{"type":"summary_text","text":""}}"#, fast: true },
            Case { name: "logprobs", data: r#"{"type":"response.output_text.delta","delta":"x","logprobs":[{"token":"x","top":[[1,2.5e3],{"\u0061":null}],"b":[true,false]}]}"#, fast: true },
            Case { name: "item", data: r#"{"type":"response.output_item.done","sequence_number":38,"output_index":0,"item":{"id":"rs_01","type":"reasoning","encrypted_content":"gAAA","summary":[{"type":"summary_text","text":"**C**\n\nI'll"}]}}"#, fast: true },
            Case { name: "created", data: r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_0","object":"response","created_at":1765552659,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-5.1","output":[],"reasoning":{"effort":"high"},"tools":[{"type":"function","parameters":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]},"strict":true}],"top_p":0.985,"usage":null,"metadata":{}}}"#, fast: true },
            Case { name: "completed", data: r#"{"type":"response.completed","response":{"id":"r","status":"completed","usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":3}}}"#, fast: true },
            Case { name: "incomplete", data: r#"{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"x":[1],"reason":"max_output_tokens"}}}"#, fast: true },
            Case { name: "repeated response members", data: r#"{"response":{"id":"a","incomplete_details":{"reason":"r"}},"response":{"model":"m","incomplete_details":{}},"response":null,"response":{"status":"s"}}"#, fast: true },
            Case { name: "null response and details", data: r#"{"type":"response.failed","response":{"incomplete_details":{"reason":"r"},"incomplete_details":null,"error":null}}"#, fast: true },
            Case { name: "response then null", data: r#"{"response":{"id":"a"},"response":null}"#, fast: true },
            Case { name: "spaces everywhere", data: " {\"type\" : \"response.refusal.delta\" ,\n\"item_id\" : \"m\" , \"delta\" : \"no\" , \"x\" : { \"y\" : [ 1 , { } ] } , \"response\" : { \"id\" : \"r\" , \"usage\" : { } } } \r\n", fast: true },
            Case { name: "escapes and utf-8 in values", data: r#"{"type":"response.output_text.delta","item_id":"a\"b","delta":"\u00e9t\u00e9 é\n\ud800"}"#, fast: true },
            Case { name: "utf-8 key matches nothing", data: r#"{"tÿpe":"x","type":"y"}"#, fast: true },
            Case { name: "numbers and literals skipped", data: r#"{"a":-0.5e+10,"b":true,"c":false,"d":null,"e":0,"f":12.25E-3,"type":"t"}"#, fast: true },
            Case { name: "summary index", data: r#"{"type":"response.reasoning_summary_text.delta","summary_index":-12,"delta":"x"}"#, fast: true },
            Case { name: "null summary index after one", data: r#"{"summary_index":3,"summary_index":null}"#, fast: true },
            Case { name: "null fields", data: r#"{"type":null,"item_id":null,"delta":null,"message":null,"item":null,"error":null,"response":null,"code":null}"#, fast: true },
            Case { name: "flat error event", data: r#"{"type":"error","code":"rate_limit_exceeded","message":"Please try again in 1.5s","param":null}"#, fast: true },
            Case { name: "number code", data: r#"{"type":"error","code":-429.5,"message":"m"}"#, fast: true },
            Case { name: "object code", data: r#"{"type":"error","code":{"a":[1]}}"#, fast: true },
            Case { name: "duplicate fields, last wins", data: r#"{"type":"a","type":"b","delta":"x","delta":null,"item_id":"i","item_id":"j","item":{},"item":[]}"#, fast: true },
            Case { name: "empty object", data: "{}", fast: true },
            Case { name: "64 deep", data: "{\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", fast: true },
            Case { name: "65 deep", data: "{\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", fast: false },
            Case { name: "error object", data: r#"{"type":"error","error":{"message":"m","code":"c"}}"#, fast: false },
            Case { name: "response error object", data: r#"{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error"}}}"#, fast: false },
            Case { name: "response string", data: r#"{"type":"response.completed","response":"x"}"#, fast: false },
            Case { name: "details string", data: r#"{"response":{"incomplete_details":"x"}}"#, fast: false },
            Case { name: "escaped key in the response", data: r#"{"response":{"\u0069d":"x"}}"#, fast: false },
            Case { name: "escaped key", data: r#"{"\u0074ype":"x"}"#, fast: false },
            Case { name: "wrong type", data: r#"{"delta":5}"#, fast: false },
            Case { name: "wrong type in the response", data: r#"{"response":{"model":[]}}"#, fast: false },
            Case { name: "error string", data: r#"{"error":"x"}"#, fast: false },
            Case { name: "fraction summary index", data: r#"{"summary_index":1.5}"#, fast: false },
            Case { name: "huge summary index", data: r#"{"summary_index":9223372036854775807}"#, fast: false },
            Case { name: "leading zero", data: r#"{"a":01}"#, fast: false },
            Case { name: "trailing comma", data: r#"{"a":1,}"#, fast: false },
            Case { name: "trailing comma nested", data: r#"{"a":[1,]}"#, fast: false },
            Case { name: "mismatched close", data: r#"{"a":[1}}"#, fast: false },
            Case { name: "trailing text", data: r#"{"a":1} x"#, fast: false },
            Case { name: "truncated", data: r#"{"type":"abc"#, fast: false },
            Case { name: "bad literal", data: r#"{"a":nul}"#, fast: false },
            Case { name: "not an object", data: "null", fast: false },
            Case { name: "control character", data: "{\"delta\":\"a\u{1}\"}", fast: false },
        ];
        let general = |d: &[u8]| WireEvent::read(d).map(|ev| text(&ev));
        compare(&cases, SUBS, &|d, _: &mut ()| read(d).map(|ev| text(&ev)), &general);
    }

    /// Where the fast reader reads an item, it reads what WireItem::read
    /// reads; it gives up on what it must not decide.
    #[test]
    fn reads_items_as_the_general_reader() {
        #[rustfmt::skip]
        let cases = [
            Case { name: "function call", data: r#"{"id":"fc_01","type":"function_call","status":"completed","arguments":"{\"a\":12,\"op\":\"add\"}","call_id":"call_AB","name":"calculator"}"#, fast: true },
            Case { name: "reasoning", data: r#"{"id":"rs_01","type":"reasoning","encrypted_content":"gAAA","summary":[{"type":"summary_text","text":"**C**"}],"content":[]}"#, fast: true },
            Case { name: "message", data: r#"{"id":"msg_0","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Oi!"}],"role":"assistant","phase":"final_answer"}"#, fast: true },
            Case { name: "nulls and repeats", data: r#"{"id":"a","id":null,"encrypted_content":"e","encrypted_content":null,"name":"n","phase":null}"#, fast: true },
            Case { name: "empty encrypted content", data: r#" { "encrypted_content" : "" , "type" : "reasoning" } "#, fast: true },
            Case { name: "empty", data: "{}", fast: true },
            Case { name: "null item", data: "null", fast: false },
            Case { name: "not an object", data: "[]", fast: false },
            Case { name: "nothing", data: "", fast: false },
            Case { name: "wrong type", data: r#"{"name":1}"#, fast: false },
            Case { name: "escaped key", data: r#"{"n\u0061me":"x"}"#, fast: false },
        ];
        let general = |d: &[u8]| WireItem::read(d).map(|it| item_text(&it)).map_err(|()| "rejected".to_string());
        compare(&cases, SUBS, &|d, _: &mut ()| item(d).map(|it| item_text(&it)), &general);
    }
}
