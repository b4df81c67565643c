package session

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/smith-agent/smith/core/model"
)

// messageFrom builds the message whose structure v is — entry content as
// the CBOR decoder returns it — the inverse of messageValue, without a
// JSON round trip (which was half of a replay's time). It reads what
// model.UnmarshalMessage would read from the JSON form: unknown keys are
// ignored, a missing or null field is its zero value, byte slices are
// base64 text, and a field of the wrong type is an error naming it.
func messageFrom(v any) (model.Message, error) {
	f, err := object(v, "the message")
	if err != nil {
		return nil, err
	}
	role, err := f.str("role")
	if err != nil {
		return nil, err
	}
	if _, ok := f["role"]; !ok {
		return nil, errors.New(`missing "role" field`)
	}
	content, err := f.content("content")
	if err != nil {
		return nil, err
	}
	switch model.Role(role) {
	case model.RoleUser:
		return model.UserMessage{Content: content}, nil
	case model.RoleAssistant:
		m := model.AssistantMessage{Content: content}
		var stop string
		if err := f.strs(map[string]*string{"provider": &m.Provider, "model": &m.Model, "response_id": &m.ResponseID, "stop": &stop}); err != nil {
			return nil, err
		}
		m.Stop = model.StopReason(stop)
		if m.Usage, err = f.usage("usage"); err != nil {
			return nil, err
		}
		if m.Error, err = f.modelError("error"); err != nil {
			return nil, err
		}
		return m, nil
	case model.RoleToolResult:
		m := model.ToolResultMessage{Content: content}
		var mutation string
		if err := f.strs(map[string]*string{"call_id": &m.CallID, "name": &m.Name, "mutation": &mutation}); err != nil {
			return nil, err
		}
		m.Mutation = model.Mutation(mutation)
		if m.IsError, err = f.boolean("is_error"); err != nil {
			return nil, err
		}
		return m, nil
	}
	return nil, fmt.Errorf("unknown role %q; want user, assistant or tool_result", role)
}

// fields is one decoded map, by key.
type fields map[string]any

// object returns v as fields; what names it in an error.
func object(v any, what string) (fields, error) {
	switch t := v.(type) {
	case map[string]any:
		return t, nil
	case map[any]any:
		f := make(fields, len(t))
		for k, e := range t {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("map key %v is %T, not a string", k, k)
			}
			f[ks] = e
		}
		return f, nil
	}
	return nil, fmt.Errorf("%s is %s, not an object", what, kind(v))
}

// kind names the kind of a decoded value in an error.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, uint64, float64, float32:
		return "a number"
	case []any:
		return "an array"
	case map[string]any, map[any]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("a %T", v)
}

// wrong is the error of a field holding the wrong kind of value.
func wrong(key string, v any, want string) error {
	if _, ok := v.([]byte); ok {
		return fmt.Errorf("field %q: unexpected byte string in message content", key)
	}
	return fmt.Errorf("field %q is %s, not %s", key, kind(v), want)
}

func (f fields) str(key string) (string, error) {
	switch v := f[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", wrong(key, v, "a string")
	}
}

// strs reads several string fields.
func (f fields) strs(dst map[string]*string) error {
	for k, p := range dst {
		s, err := f.str(k)
		if err != nil {
			return err
		}
		*p = s
	}
	return nil
}

func (f fields) boolean(key string) (bool, error) {
	switch v := f[key].(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	default:
		return false, wrong(key, v, "a boolean")
	}
}

// integer reads an integer field; ok is false for null or a missing field.
func (f fields) integer(key string) (n int64, ok bool, err error) {
	switch v := f[key].(type) {
	case nil:
		return 0, false, nil
	case int64:
		return v, true, nil
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true, nil
		}
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
			return int64(v), true, nil
		}
	}
	return 0, false, wrong(key, f[key], "an integer")
}

func (f fields) bytes(key string) ([]byte, error) {
	switch v := f[key].(type) {
	case nil:
		return nil, nil
	case string:
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, fmt.Errorf("field %q is not base64: %w", key, err)
		}
		return b, nil
	default:
		return nil, wrong(key, v, "base64 text")
	}
}

func (f fields) usage(key string) (model.Usage, error) {
	var u model.Usage
	if f[key] == nil {
		return u, nil
	}
	g, err := object(f[key], fmt.Sprintf("field %q", key))
	if err != nil {
		return u, err
	}
	for k, p := range map[string]*model.Amount{"input": &u.Input, "output": &u.Output, "cache_read": &u.CacheRead,
		"cache_write": &u.CacheWrite, "reasoning": &u.Reasoning, "cost_nano_usd": &u.CostNanoUSD} {
		n, ok, err := g.integer(k)
		if err != nil {
			return u, fmt.Errorf("usage: %w", err)
		}
		if ok {
			*p = model.Known(n)
		}
	}
	return u, nil
}

func (f fields) modelError(key string) (*model.Error, error) {
	if f[key] == nil {
		return nil, nil
	}
	g, err := object(f[key], fmt.Sprintf("field %q", key))
	if err != nil {
		return nil, err
	}
	var e model.Error
	var k string
	if err := g.strs(map[string]*string{"kind": &k, "message": &e.Message, "provider_type": &e.ProviderType, "code": &e.Code, "request_id": &e.RequestID}); err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	e.Kind = model.ErrorKind(k)
	if e.Retryable, err = g.boolean("retryable"); err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	if e.RetryAfterMillis, _, err = g.integer("retry_after_ms"); err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	status, _, err := g.integer("http_status")
	if err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	e.HTTPStatus = int(status)
	return &e, nil
}

// content reads a content list: null stays nil, [] is empty.
func (f fields) content(key string) ([]model.Content, error) {
	var list []any
	switch v := f[key].(type) {
	case nil:
		return nil, nil
	case []any:
		list = v
	default:
		return nil, wrong(key, v, "an array")
	}
	out := make([]model.Content, 0, len(list))
	for i, e := range list {
		c, err := block(e)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", i, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// block reads one content block by its "type".
func block(v any) (model.Content, error) {
	f, err := object(v, "the block")
	if err != nil {
		return nil, err
	}
	typ, err := f.str("type")
	if err != nil {
		return nil, err
	}
	var producer string
	switch typ {
	case "text":
		var c model.Text
		if err := f.strs(map[string]*string{"text": &c.Text, "producer": &producer}); err != nil {
			return nil, err
		}
		c.Producer = producer
		c.Signature, err = f.bytes("signature")
		return c, err
	case "thinking":
		var c model.Thinking
		if err := f.strs(map[string]*string{"text": &c.Text, "producer": &producer}); err != nil {
			return nil, err
		}
		c.Producer = producer
		if c.Signature, err = f.bytes("signature"); err != nil {
			return nil, err
		}
		if c.Encrypted, err = f.bytes("encrypted"); err != nil {
			return nil, err
		}
		c.Redacted, err = f.boolean("redacted")
		return c, err
	case "image":
		var c model.Image
		if c.MediaType, err = f.str("media_type"); err != nil {
			return nil, err
		}
		c.Data, err = f.bytes("data")
		return c, err
	case "tool_call":
		var c model.ToolCall
		if err := f.strs(map[string]*string{"id": &c.ID, "name": &c.Name, "arguments_error": &c.ArgumentsError, "producer": &producer}); err != nil {
			return nil, err
		}
		c.Producer = producer
		args, ok := f["arguments"].(string)
		if !ok || !json.Valid([]byte(args)) {
			return nil, errors.New("tool-call arguments are not a JSON text")
		}
		c.Arguments = json.RawMessage(args)
		c.Signature, err = f.bytes("signature")
		return c, err
	}
	return nil, fmt.Errorf("unknown block type %q; want text, thinking, image or tool_call", typ)
}
