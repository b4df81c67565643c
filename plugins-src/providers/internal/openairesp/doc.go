// Package openairesp is the codec of the OpenAI Responses API (also the
// ChatGPT-login Codex backend): the streaming decoder (output items,
// reasoning summaries with their encrypted_content kept byte-exact from
// output_item.done, function calls keyed by call_id), and the request
// builder for stateless use (store:false, every prior output item replayed).
// Error responses share the envelope of Chat Completions and are classified
// by openaichat.ClassifyResponse.
package openairesp
