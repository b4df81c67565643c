//! A test guest of the generated Rust bindings (TestRustGuestRoundTrips):
//! it exports contrib, tool, provider and handler, calls the fs and
//! process imports, and reports what it received so the host can check
//! every value shape in both directions.

#[path = "../../../../../wit/rust/smith_plugin.rs"]
mod smith_plugin;

use smith_plugin::contrib::{
    CommandDefinition, ContextTransformDefinition, Contributions, DeclareOptions, KeyBinding, ModelDefinition,
    OptionKind, PromptDefinition, ProviderDefinition, ProviderOption, RegistrationFault, ThemeStyle, ToolDefinition,
};
use smith_plugin::handler::{Action, Event, HandleOptions, HandlerFault, ModelSelection, ToolActivation};
use smith_plugin::provider::{
    BlockEnd, BuildOptions, ClassifyOptions, CodecFault, ContentDelta, DecodeOptions, Failure, HeaderTemplate,
    HttpMethod, RequestSnapshot, RequestTemplate, ResponseEnd, SecretReference, StopReason, StreamEvent,
    TemplatePart, Usage,
};
use smith_plugin::tool::{InvokeOptions, ToolCall, ToolFault, ToolOutput};
use smith_plugin::types::{ContentBlock, EventKind, FailureKind, Image};
use smith_plugin::{fs, process};

struct Guest;

impl smith_plugin::contrib::Guest for Guest {
    fn declare_contributions(options: DeclareOptions) -> Result<Contributions, RegistrationFault> {
        if options.configuration == "{\"fail\":true}" {
            return Err(RegistrationFault::InvalidConfiguration(options.world_version));
        }
        Ok(Contributions {
            tools: vec![
                ToolDefinition {
                    name: "read".to_string(),
                    description: "Reads a file.".to_string(),
                    input_schema: options.configuration.clone(),
                },
                ToolDefinition {
                    name: "ünïcode ✓".to_string(),
                    description: String::new(),
                    input_schema: "{}".to_string(),
                },
            ],
            commands: vec![
                CommandDefinition {
                    name: "compact".to_string(),
                    description: "Compacts.".to_string(),
                    argument_hint: Some("<model>".to_string()),
                },
                CommandDefinition {
                    name: "clear".to_string(),
                    description: "Clears.".to_string(),
                    argument_hint: None,
                },
            ],
            providers: vec![ProviderDefinition {
                name: "example".to_string(),
                display_name: "Example".to_string(),
                secret_names: vec!["api-key".to_string(), "org?".to_string()],
                options: vec![ProviderOption {
                    name: "wire-field".to_string(),
                    kind: OptionKind::Text,
                    allowed: vec!["a".to_string(), "b".to_string()],
                    example: "\"a\"".to_string(),
                    description: "Names the field.".to_string(),
                }],
            }],
            models: vec![ModelDefinition {
                provider: "example".to_string(),
                name: "m1".to_string(),
                display_name: "M1".to_string(),
                context_window: 200_000,
                output_limit: 4_294_967_295,
                supports_tools: true,
                supports_images: false,
            }],
            subscriptions: vec![EventKind::TurnEnd, EventKind::AgentStart, EventKind::Unknown],
            prompts: vec![PromptDefinition { name: "system".to_string(), description: "Says who.".to_string() }],
            context_transforms: vec![ContextTransformDefinition {
                name: "notes".to_string(),
                description: String::new(),
            }],
            key_bindings: vec![KeyBinding {
                action: "submit".to_string(),
                keys: vec!["enter".to_string(), "ctrl+s".to_string()],
            }],
            theme: vec![ThemeStyle { role: "accent".to_string(), style: "bold #ff8800".to_string() }],
            layout: None,
        })
    }
}

/// text is one text content block.
fn text(s: String) -> ContentBlock {
    ContentBlock::Text(s)
}

/// effect maps an effect's fault to the tool fault the model sees.
fn effect<T>(r: Result<T, impl std::fmt::Debug>) -> Result<T, ToolFault> {
    r.map_err(|e| ToolFault::EffectFailure(format!("{:?}", e)))
}

impl smith_plugin::tool::Guest for Guest {
    fn invoke_tool(call: ToolCall, options: InvokeOptions) -> Result<ToolOutput, ToolFault> {
        let args = call.arguments;
        let content = match call.name.as_str() {
            "read" => {
                let opts = fs::ReadOptions { offset: 2, limit: 3, byte_limit: 1 << 40 };
                let r = fs::read_file(&args, &opts);
                vec![text(format!("{:?}", r))]
            }
            "write" => vec![text(format!("{:?}", fs::write_file(&args, "content ✓", &fs::WriteOptions { create_parents: true })))],
            "edit" => {
                let edits = vec![
                    fs::TextEdit { old_text: "a".to_string(), new_text: "b".to_string() },
                    fs::TextEdit { old_text: String::new(), new_text: "ç".to_string() },
                ];
                let r = effect(fs::edit_file(&args, &edits, &fs::EditOptions { byte_limit: u64::MAX }))?;
                vec![text(r.diff), text(r.first_changed_line.to_string())]
            }
            "edit-many" => {
                let n: usize = args.parse().map_err(|_| ToolFault::InvalidArguments(args.clone()))?;
                let edits: Vec<fs::TextEdit> = (0..n).map(|i| fs::TextEdit { old_text: i.to_string(), new_text: String::new() }).collect();
                let r = effect(fs::edit_file("many", &edits, &fs::EditOptions::default()))?;
                vec![text(r.diff)]
            }
            "edit-none" => vec![text(format!("{:?}", fs::edit_file(&args, &[], &fs::EditOptions::default())))],
            "list" => {
                let r = effect(fs::list_directory(&args, &fs::ListOptions { limit: 7 }))?;
                r.into_iter().map(|e| text(format!("{}:{:?}", e.name, e.kind))).collect()
            }
            "find" => {
                let r = effect(fs::find_files(&args, &options.working_directory, &fs::FindOptions { limit: 0, include_ignored: true }))?;
                r.into_iter().map(text).collect()
            }
            "search" => {
                let glob = if args.is_empty() { None } else { Some("*.go".to_string()) };
                let opts = fs::SearchOptions { glob, literal: true, ignore_case: false, limit: 100 };
                let r = effect(fs::search_text(&args, "dir", &opts))?;
                r.into_iter().map(|m| text(format!("{}:{}:{}", m.path, m.line, m.text))).collect()
            }
            "run" => {
                let cmd = process::Command { line: args, directory: options.working_directory };
                let r = process::run_process(&cmd, &process::RunOptions { timeout_ms: 1500, output_limit: options.output_limit });
                vec![text(format!("{:?}", r))]
            }
            "image" => vec![
                ContentBlock::Image(Image { media_type: "image/png".to_string(), data: args.into_bytes() }),
                ContentBlock::Unknown("video".to_string()),
                ContentBlock::Image(Image { media_type: String::new(), data: Vec::new() }),
            ],
            "empty" => Vec::new(),
            "cancelled" => return Err(ToolFault::Unknown(String::new())),
            _ => return Err(ToolFault::UnknownTool(call.name)),
        };
        let details = if call.id.is_empty() { None } else { Some(format!("{{\"id\":{:?}}}", call.id)) };
        Ok(ToolOutput { content, details })
    }
}

/// Decoder splits the body at newlines: each complete line is one
/// text delta, and finish reports the rest and the chunk count as usage.
struct Decoder {
    provider: String,
    status: u16,
    pending: Vec<u8>,
    chunks: u64,
}

impl smith_plugin::provider::GuestDecoder for Decoder {
    fn new(options: DecodeOptions) -> Self {
        Decoder { provider: options.provider, status: options.status, pending: options.content_type.into_bytes(), chunks: 0 }
    }

    fn decode_chunk(&mut self, chunk: Vec<u8>) -> Result<Vec<StreamEvent>, CodecFault> {
        if self.chunks == 0 {
            self.pending.clear();
        }
        self.chunks += 1;
        if chunk == b"bad" {
            return Err(CodecFault::MalformedResponse(format!("{} {}", self.provider, self.status)));
        }
        self.pending.extend_from_slice(&chunk);
        let mut events = Vec::new();
        while let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=i).collect();
            let s = String::from_utf8_lossy(&line[..i]).into_owned();
            events.push(StreamEvent::TextDelta(ContentDelta { index: events.len() as u32, text: s }));
        }
        Ok(events)
    }

    fn finish(&mut self) -> Result<Vec<StreamEvent>, CodecFault> {
        let rest = std::mem::take(&mut self.pending);
        Ok(vec![
            StreamEvent::BlockEnd(BlockEnd { index: 9, signature: None, encrypted: Some(rest), redacted: true }),
            StreamEvent::Usage(Usage { input: Some(self.chunks), output: None, cache_read: Some(u64::MAX), cache_write: None, reasoning: Some(0) }),
            StreamEvent::Done(ResponseEnd { reason: StopReason::ToolUse, raw_stop: Some("tool_use".to_string()), raw_usage: None }),
        ])
    }
}

impl smith_plugin::provider::Guest for Guest {
    type Decoder = Decoder;

    fn build_request(snapshot: RequestSnapshot, options: BuildOptions) -> Result<RequestTemplate, CodecFault> {
        if snapshot.provider != "example" {
            return Err(CodecFault::UnknownProvider(snapshot.provider));
        }
        Ok(RequestTemplate {
            method: if options.streaming { HttpMethod::Post } else { HttpMethod::Get },
            url: vec![TemplatePart::Literal("https://example.test/".to_string()), TemplatePart::Literal(snapshot.model)],
            headers: vec![
                HeaderTemplate {
                    name: "authorization".to_string(),
                    value: vec![
                        TemplatePart::Literal("Bearer ".to_string()),
                        TemplatePart::Secret(SecretReference { name: "api-key".to_string() }),
                    ],
                },
                HeaderTemplate { name: "x-empty".to_string(), value: Vec::new() },
            ],
            body: snapshot.document.into_bytes(),
        })
    }

    fn classify_failure(body: Vec<u8>, options: ClassifyOptions) -> Failure {
        let retry = options.headers.iter().find(|h| h.name == "retry-after-ms").map(|h| h.value.parse::<u64>().unwrap_or(0));
        Failure {
            kind: if options.status == 429 { FailureKind::RateLimit } else { FailureKind::Unknown },
            message: String::from_utf8_lossy(&body).into_owned(),
            retryable: retry.is_some(),
            retry_after_ms: retry,
            http_status: Some(options.status),
            provider_type: None,
            vendor_code: Some(options.provider),
            request_id: options.headers.last().map(|h| h.value.clone()),
        }
    }
}

impl smith_plugin::handler::Guest for Guest {
    fn handle_event(event: Event, options: HandleOptions) -> Result<Vec<Action>, HandlerFault> {
        if event.kind == EventKind::Unknown {
            return Err(HandlerFault::InvalidEvent(event.payload));
        }
        Ok(vec![
            Action::CancelRun(format!("{:?} {}", event.kind, event.sequence)),
            Action::ContinueRun,
            Action::SelectModel(ModelSelection { provider: "example".to_string(), model: event.payload }),
            Action::SetToolActivation(ToolActivation { name: "bash".to_string(), active: options.decision_required }),
            Action::ReloadPlugins,
        ])
    }
}

crate::export_contrib!(Guest);
crate::export_tool!(Guest);
crate::export_provider!(Guest);
crate::export_handler!(Guest);

#[cfg(test)]
mod tests {
    use super::smith_plugin::rt::Canon;
    use super::*;

    #[test]
    fn records_and_enums_default() {
        let o = fs::ReadOptions { byte_limit: 1 << 20, ..Default::default() };
        assert_eq!((o.offset, o.limit, o.byte_limit), (0, 0, 1 << 20));
        assert_eq!(EventKind::default(), EventKind::AgentStart);
        assert_eq!(smith_plugin::log::LogOptions::default().level, smith_plugin::log::Level::Debug);
    }

    #[test]
    fn layouts_follow_the_canonical_abi() {
        assert_eq!((<Option<u64>>::SIZE, <Option<u64>>::ALIGN), (16, 8));
        assert_eq!((<Option<String>>::SIZE, <Option<String>>::ALIGN), (12, 4));
        assert_eq!((<Option<u16>>::SIZE, <Option<u16>>::ALIGN), (4, 2));
        assert_eq!((<Result<(), fs::FileFault>>::SIZE, <Result<(), fs::FileFault>>::ALIGN), (24, 8));
        assert_eq!((<Result<bool, smith_plugin::ui::UiFault>>::SIZE, <Result<bool, smith_plugin::ui::UiFault>>::ALIGN), (16, 4));
        assert_eq!((<fs::FileFault>::SIZE, <fs::FileFault>::ALIGN), (16, 8));
        assert_eq!((<Failure>::SIZE, <Failure>::ALIGN), (72, 8));
    }

    #[test]
    fn decoder_splits_lines() {
        use smith_plugin::provider::GuestDecoder;
        let mut d = Decoder::new(DecodeOptions { provider: "p".to_string(), status: 200, content_type: String::new() });
        let events = d.decode_chunk(b"x\ny".to_vec()).unwrap();
        assert_eq!(events, vec![StreamEvent::TextDelta(ContentDelta { index: 0, text: "x".to_string() })]);
    }

    /// A spared buffer is the next byte block the host asks for that fits,
    /// taken over or freed with its whole capacity; other blocks (aligned,
    /// larger) are ordinary allocations; a smaller buffer does not replace
    /// a larger one. (The only test touching the runtime's statics.)
    #[test]
    fn spare_buffer_serves_the_next_byte_block() {
        use smith_plugin::rt;
        let null = std::ptr::null_mut();
        unsafe {
            let v: Vec<u8> = Vec::with_capacity(4096);
            let kept = v.as_ptr() as usize;
            rt::spare(v);
            let p = rt::cabi_realloc(null, 0, 1, 100) as usize;
            assert_eq!(p, kept, "a block that fits is the spare");
            let taken = rt::take_bytes(p, 100);
            assert_eq!((taken.len(), taken.capacity()), (100, 4096));
            rt::spare(taken);
            rt::spare(Vec::with_capacity(64)); // smaller: dropped, the 4 KiB one stays
            let q = rt::cabi_realloc(null, 0, 4, 100) as usize;
            assert_ne!(q, kept, "an aligned block is not the spare");
            rt::free(q, 100, 4);
            let r = rt::cabi_realloc(null, 0, 1, 5000) as usize;
            assert_ne!(r, kept, "a larger block is not the spare");
            drop(rt::take_bytes(r, 5000));
            let s = rt::cabi_realloc(null, 0, 1, 10) as usize;
            assert_eq!(s, kept, "the spare is still kept");
            let grown = rt::cabi_realloc(s as *mut u8, 10, 1, 8192) as usize;
            drop(rt::take_bytes(grown, 8192)); // realloc'd from the lent block with its capacity
            // Nothing is spared any more, so a smaller buffer is kept now.
            let v: Vec<u8> = Vec::with_capacity(1024);
            let small = v.as_ptr() as usize;
            rt::spare(v);
            let t = rt::cabi_realloc(null, 0, 1, 10) as usize;
            assert_eq!(t, small, "the lent spare was given up by the realloc");
            rt::free(t, 10, 1);
        }
    }

    #[test]
    #[should_panic(expected = "is a host import")]
    fn imports_panic_natively() {
        let _ = fs::read_file("x", &fs::ReadOptions::default());
    }
}
