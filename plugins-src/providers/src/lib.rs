//! Smith's provider codecs: the anthropic, openai (Responses),
//! openai-chat, google and openai-compatible providers of the
//! smith:plugin world, built by tools/pluginbuild into one WebAssembly
//! module per wire format (the `variants` file; see `formats!`) in
//! smith/internal/sysplugins. All vendor knowledge — endpoints,
//! headers, credential variable names, wire formats, quirks — lives here;
//! the host only runs the exchanges.
//!
//! The plugin builds request templates with secret references (the host
//! substitutes the credential at the effect boundary), decodes response
//! bodies chunk by chunk into the normalized stream, and classifies
//! failed responses. One folder per wire format (anthropic, gemini,
//! openai_chat, openai_responses) holds its decoder (mod.rs), request
//! builder (build.rs) and failure classifier; Each folder's `FORMAT`
//! ([`format::Format`]) names its providers; `formats!` registers it. Shared code:
//! [`norm`] (the normalized events and messages), [`sse`], [`retry`],
//! [`handoff`], and the library crates smith_json, smith_text and
//! smith_plugin (the bindings tools/witgen generates). See
//! plugins-src/README.md for adding a wire format.

/// formats! declares the wire-format modules and registers them, in
/// order, in FORMATS (their providers are declared in this order). A
/// build with `--cfg variant --cfg NAME` registers only the format whose
/// module is NAME: tools/pluginbuild builds one artifact per format (the
/// `variants` file beside src/), so a turn compiles only the codec it
/// uses, and link-time optimization drops the formats left unregistered.
/// A build without `variant` (the tests, pluginbuild's warning check)
/// registers them all.
macro_rules! formats {
    ($($m:ident),*) => {
        $(mod $m;)*
        /// FORMATS are the registered wire formats.
        const FORMATS: &[&format::Format] = &[$(
            #[cfg(any(not(variant), $m))]
            &$m::FORMAT
        ),*];
    };
}

formats!(anthropic, openai_responses, openai_chat, gemini);

mod declare;
mod decoder;
mod document;
mod failure;
#[cfg(test)]
mod fasttest;
mod format;
mod handoff;
mod norm;
mod request;
mod retry;
mod sse;

use smith_plugin::contrib::{Contributions, DeclareOptions, RegistrationFault};
use smith_plugin::provider::{
    BuildOptions, ClassifyOptions, CodecFault, DecodeOptions, Failure, RequestSnapshot, RequestTemplate, StreamEvent,
};

/// Providers implements the contrib and provider exports.
pub struct Providers;

impl smith_plugin::contrib::Guest for Providers {
    /// declare_contributions declares the five providers.
    fn declare_contributions(_: DeclareOptions) -> Result<Contributions, RegistrationFault> {
        declare::contributions()
    }
}

impl smith_plugin::provider::Guest for Providers {
    type Decoder = decoder::StreamDecoder;

    /// build_request builds the request template of a snapshot.
    fn build_request(s: RequestSnapshot, _: BuildOptions) -> Result<RequestTemplate, CodecFault> {
        request::build(&s)
    }

    /// classify_failure classifies a non-2xx response.
    fn classify_failure(body: Vec<u8>, o: ClassifyOptions) -> Failure {
        failure::classify(&body, &o)
    }
}

impl smith_plugin::provider::GuestDecoder for decoder::StreamDecoder {
    fn new(o: DecodeOptions) -> Self {
        decoder::StreamDecoder::new(&o.provider)
    }

    /// decode_chunk decodes one chunk and keeps its buffer for the next
    /// (smith_plugin::rt::spare): a stream's chunks are of similar sizes.
    fn decode_chunk(&mut self, chunk: Vec<u8>) -> Result<Vec<StreamEvent>, CodecFault> {
        let events = decoder::StreamDecoder::decode_chunk(self, &chunk);
        smith_plugin::rt::spare(chunk);
        events
    }

    fn finish(&mut self) -> Result<Vec<StreamEvent>, CodecFault> {
        decoder::StreamDecoder::finish(self)
    }
}

#[cfg(target_arch = "wasm32")]
smith_plugin::export_contrib!(Providers);
#[cfg(target_arch = "wasm32")]
smith_plugin::export_provider!(Providers);
