package gemini

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// thinkingBudgets are the Gemini 2.x budgets per level (0 turns thinking
// off where the model allows it).
var thinkingBudgets = map[norm.ThinkingLevel]int{
	norm.ThinkingOff: 0, norm.ThinkingMinimal: 128, norm.ThinkingLow: 1024,
	norm.ThinkingMedium: 8192, norm.ThinkingHigh: 24576, norm.ThinkingXHigh: 32768,
}

// thinkingLevels are the Gemini 3 levels.
var thinkingLevels = map[norm.ThinkingLevel]string{
	norm.ThinkingOff: "MINIMAL", norm.ThinkingMinimal: "MINIMAL", norm.ThinkingLow: "LOW",
	norm.ThinkingMedium: "MEDIUM", norm.ThinkingHigh: "HIGH", norm.ThinkingXHigh: "HIGH",
}

// BuildRequest returns the streamGenerateContent?alt=sse request for r. The
// credential is a reference (x-goog-api-key ← secretRef). Each thought
// signature goes back on the part it came on; thought summaries without a
// signature are not sent back (they are summaries, not the reasoning). Tool
// schemas are converted to Gemini's OpenAPI subset (upper-case types,
// unsupported keywords dropped). Gemini 3 models take thinkingLevel, older
// ones thinkingBudget.
func BuildRequest(r *norm.Request, secretRef string) (*norm.HTTPRequest, error) {
	body := map[string]any{}
	if r.System != "" {
		body["systemInstruction"] = map[string]any{"role": "user", "parts": []any{map[string]any{"text": r.System}}}
	}
	contents, err := contents(r.Messages)
	if err != nil {
		return nil, err
	}
	body["contents"] = contents
	if len(r.Tools) > 0 {
		decls := make([]any, len(r.Tools))
		for i, t := range r.Tools {
			var schema any
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("gemini: tool %q: parameters are not a JSON schema: %v", t.Name, err)
			}
			decls[i] = map[string]any{"name": t.Name, "description": t.Description, "parameters": toSchema(schema)}
		}
		body["tools"] = []any{map[string]any{"functionDeclarations": decls}}
		body["toolConfig"] = map[string]any{"functionCallingConfig": map[string]any{"mode": "AUTO"}}
	}
	gen := map[string]any{}
	if r.MaxTokens > 0 {
		gen["maxOutputTokens"] = r.MaxTokens
	}
	if r.Thinking != norm.ThinkingDefault {
		tc := map[string]any{"includeThoughts": r.Thinking != norm.ThinkingOff}
		if strings.Contains(r.Model, "gemini-3") {
			tc["thinkingLevel"] = thinkingLevels[r.Thinking]
		} else {
			budget, ok := thinkingBudgets[r.Thinking]
			if r.ThinkingBudget > 0 {
				budget, ok = r.ThinkingBudget, true
			}
			if !ok {
				return nil, fmt.Errorf("gemini: unknown thinking level %q; use off, minimal, low, medium, high or xhigh", r.Thinking)
			}
			tc["thinkingBudget"] = budget
		}
		gen["thinkingConfig"] = tc
	}
	if len(gen) > 0 {
		body["generationConfig"] = gen
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("gemini: encode request body: %w", err)
	}
	return &norm.HTTPRequest{Method: "POST",
		Path: "/v1beta/models/" + url.PathEscape(r.Model) + ":streamGenerateContent?alt=sse", Body: b,
		Headers: []norm.Header{
			{Name: "content-type", Value: "application/json"},
			{Name: "accept", Value: "text/event-stream"},
			{Name: "x-goog-api-key", SecretRef: secretRef},
		}}, nil
}

func contents(in []norm.Message) ([]any, error) {
	var out []any
	var responses []any
	flush := func() {
		if len(responses) > 0 {
			out = append(out, map[string]any{"role": "user", "parts": responses})
			responses = nil
		}
	}
	for i, m := range in {
		switch m := m.(type) {
		case norm.UserMessage:
			flush()
			out = append(out, map[string]any{"role": "user", "parts": userParts(m.Content)})
		case norm.ToolResultMessage:
			var text strings.Builder
			for _, c := range m.Content {
				if t, ok := c.(norm.Text); ok {
					text.WriteString(t.Text)
				}
			}
			key := "result"
			if m.IsError {
				key = "error"
			}
			fr := map[string]any{"name": m.Name, "response": map[string]any{key: text.String()}}
			if m.CallID != "" {
				fr["id"] = m.CallID
			}
			responses = append(responses, map[string]any{"functionResponse": fr})
			for _, c := range m.Content {
				if img, ok := c.(norm.Image); ok {
					responses = append(responses, inline(img))
				}
			}
		case norm.AssistantMessage:
			flush()
			parts, err := modelParts(m.Content)
			if err != nil {
				return nil, fmt.Errorf("gemini: message %d: %w", i, err)
			}
			if len(parts) > 0 {
				out = append(out, map[string]any{"role": "model", "parts": parts})
			}
		}
	}
	flush()
	return out, nil
}

func userParts(cs []norm.Content) []any {
	parts := []any{}
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Text:
			parts = append(parts, map[string]any{"text": c.Text})
		case norm.Image:
			parts = append(parts, inline(c))
		}
	}
	return parts
}

func inline(c norm.Image) any {
	return map[string]any{"inlineData": map[string]any{"mimeType": c.MediaType, "data": base64.StdEncoding.EncodeToString(c.Data)}}
}

func modelParts(cs []norm.Content) ([]any, error) {
	var parts []any
	withSig := func(p map[string]any, sig []byte) map[string]any {
		if len(sig) > 0 {
			p["thoughtSignature"] = string(sig)
		}
		return p
	}
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Thinking:
			if len(c.Signature) > 0 {
				parts = append(parts, withSig(map[string]any{"text": c.Text, "thought": true}, c.Signature))
			}
		case norm.Text:
			if c.Text != "" || len(c.Signature) > 0 {
				parts = append(parts, withSig(map[string]any{"text": c.Text}, c.Signature))
			}
		case norm.ToolCall:
			args := c.Arguments
			if c.ArgumentsError != "" {
				args = json.RawMessage("{}") // never executed; its result says why
			}
			fc := map[string]any{"name": c.Name, "args": args}
			if c.ID != "" {
				fc["id"] = c.ID
			}
			parts = append(parts, withSig(map[string]any{"functionCall": fc}, c.Signature))
		case norm.Other:
			parts = append(parts, c.Raw)
		case norm.Image:
			return nil, fmt.Errorf("an assistant message cannot carry an image")
		}
	}
	return parts, nil
}

// schemaKeys are the JSON Schema keywords Gemini's Schema accepts.
var schemaKeys = map[string]bool{"type": true, "description": true, "properties": true, "required": true,
	"items": true, "enum": true, "format": true, "nullable": true, "minItems": true, "maxItems": true,
	"minimum": true, "maximum": true, "anyOf": true, "title": true, "minLength": true, "maxLength": true,
	"pattern": true, "default": true, "propertyOrdering": true}

// toSchema converts a JSON Schema value to Gemini's Schema subset.
func toSchema(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, val := range m {
		if !schemaKeys[k] {
			continue
		}
		switch k {
		case "type":
			switch t := val.(type) {
			case string:
				out[k] = strings.ToUpper(t)
			case []any: // ["string","null"] → STRING, nullable
				for _, x := range t {
					if s, _ := x.(string); s == "null" {
						out["nullable"] = true
					} else if s != "" {
						out[k] = strings.ToUpper(s)
					}
				}
			}
		case "properties":
			props := map[string]any{}
			if pm, ok := val.(map[string]any); ok {
				for name, p := range pm {
					props[name] = toSchema(p)
				}
			}
			out[k] = props
		case "items":
			out[k] = toSchema(val)
		case "anyOf":
			if list, ok := val.([]any); ok {
				conv := make([]any, len(list))
				for i, x := range list {
					conv[i] = toSchema(x)
				}
				out[k] = conv
			}
		case "nullable":
			// A type list naming "null" sets nullable too, and wins
			// whichever key the map gives first: the body must not
			// depend on map order.
			if _, set := out[k]; !set {
				out[k] = val
			}
		default:
			out[k] = val
		}
	}
	return out
}
