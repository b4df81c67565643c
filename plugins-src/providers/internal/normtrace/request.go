package normtrace

import (
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// RequestTrace returns r as text, one line per part, in the style of
// [Trace] (fields in Go declaration order as " Name=value", strings and
// bytes quoted by [strconv.QuoteToASCII]): a "Request" line with the
// request's scalar fields, then each message — a line of its type and
// fields, then a line per content block indented by two spaces — and a
// line per tool:
//
//	Request Model="m" System="" MaxTokens=0 Thinking="" ThinkingBudget=0 CacheKey=""
//	UserMessage
//	  Text Text="hi" Signature="" Producer="" ItemID="" Phase=""
//	AssistantMessage Provider="p" Model="" ResponseID="" Stop="" StopRaw="" Usage={…} Error=nil
//	ToolResultMessage CallID="c" Name="f" IsError=false
//	Tool Name="f" Description="" Parameters="{}"
//
// A nil and an empty slice look the same. The Rust port's
// document::trace_request writes the same text for an equal request.
func RequestTrace(r *norm.Request) string {
	var b []byte
	b = append(b, "Request"...)
	b = str(b, "Model", r.Model)
	b = str(b, "System", r.System)
	b = num(b, "MaxTokens", int64(r.MaxTokens))
	b = str(b, "Thinking", string(r.Thinking))
	b = num(b, "ThinkingBudget", int64(r.ThinkingBudget))
	b = str(b, "CacheKey", r.CacheKey)
	b = append(b, '\n')
	for _, m := range r.Messages {
		b = appendMessage(b, m)
	}
	for _, t := range r.Tools {
		b = append(b, "Tool"...)
		b = str(b, "Name", t.Name)
		b = str(b, "Description", t.Description)
		b = str(b, "Parameters", string(t.Parameters))
		b = append(b, '\n')
	}
	return string(b)
}

// appendMessage appends the lines of one message; a message of a type
// outside norm's closed set is written as "?" and its Go type.
func appendMessage(b []byte, m norm.Message) []byte {
	var content []norm.Content
	switch m := m.(type) {
	case norm.UserMessage:
		b = append(b, "UserMessage"...)
		content = m.Content
	case norm.AssistantMessage:
		b = append(b, "AssistantMessage"...)
		b = str(b, "Provider", m.Provider)
		b = str(b, "Model", m.Model)
		b = str(b, "ResponseID", m.ResponseID)
		b = str(b, "Stop", string(m.Stop))
		b = str(b, "StopRaw", m.StopRaw)
		b = usage(b, m.Usage)
		b = AppendError(append(b, " Error="...), m.Error)
		content = m.Content
	case norm.ToolResultMessage:
		b = append(b, "ToolResultMessage"...)
		b = str(b, "CallID", m.CallID)
		b = str(b, "Name", m.Name)
		b = flag(b, "IsError", m.IsError)
		content = m.Content
	default:
		b = fmt.Appendf(b, "?%T", m)
	}
	b = append(b, '\n')
	for _, c := range content {
		b = append(appendContent(append(b, "  "...), c), '\n')
	}
	return b
}

func appendContent(b []byte, c norm.Content) []byte {
	switch c := c.(type) {
	case norm.Text:
		b = append(b, "Text"...)
		b = str(b, "Text", c.Text)
		b = str(b, "Signature", string(c.Signature))
		b = str(b, "Producer", c.Producer)
		b = str(b, "ItemID", c.ItemID)
		b = str(b, "Phase", c.Phase)
	case norm.Thinking:
		b = append(b, "Thinking"...)
		b = str(b, "Text", c.Text)
		b = str(b, "Signature", string(c.Signature))
		b = str(b, "Encrypted", string(c.Encrypted))
		b = flag(b, "Redacted", c.Redacted)
		b = str(b, "Format", c.Format)
		b = str(b, "ItemID", c.ItemID)
		b = str(b, "Producer", c.Producer)
	case norm.Image:
		b = append(b, "Image"...)
		b = str(b, "MediaType", c.MediaType)
		b = str(b, "Data", string(c.Data))
	case norm.ToolCall:
		b = append(b, "ToolCall"...)
		b = str(b, "ID", c.ID)
		b = str(b, "Name", c.Name)
		b = str(b, "Arguments", string(c.Arguments))
		b = str(b, "ArgumentsError", c.ArgumentsError)
		b = str(b, "Signature", string(c.Signature))
		b = str(b, "ItemID", c.ItemID)
		b = str(b, "Producer", c.Producer)
	case norm.Other:
		b = append(b, "Other"...)
		b = str(b, "Type", c.Type)
		b = str(b, "Raw", string(c.Raw))
		b = str(b, "Producer", c.Producer)
	default:
		b = fmt.Appendf(b, "?%T", c)
	}
	return b
}
