// Package openaichat is the codec of the OpenAI Chat Completions API and of
// the servers that speak it (the openai-compatible provider: DeepSeek, Groq,
// Mistral, OpenRouter, xAI, Z.ai, llama.cpp, vLLM, Ollama, …). The decoder
// tolerates every recorded server variant without configuration — reasoning
// in reasoning_content, reasoning, reasoning_text, reasoning_details or typed
// content parts; tool calls with or without an index; usage on the finish
// chunk, on a choices-less chunk, twice or never; an optional [DONE]. The
// per-server differences that matter for requests are data: [Quirks].
package openaichat
