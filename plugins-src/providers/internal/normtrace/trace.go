package normtrace

import (
	"fmt"
	"strconv"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// Trace returns the events as text, one line per event (see the package
// documentation for the format).
func Trace(events []norm.Event) string {
	var b []byte
	for _, ev := range events {
		b = AppendEvent(b, ev)
	}
	return string(b)
}

// AppendEvent appends the trace line of ev, newline included, to b. An
// event of a type outside norm's closed set is written as "?" and its Go
// type.
func AppendEvent(b []byte, ev norm.Event) []byte {
	switch e := ev.(type) {
	case norm.Start:
		b = append(b, "Start"...)
		b = str(b, "Provider", e.Provider)
		b = str(b, "Model", e.Model)
		b = str(b, "ResponseID", e.ResponseID)
	case norm.TextDelta:
		b = append(b, "TextDelta"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "Text", e.Text)
		b = str(b, "Signature", string(e.Signature))
		b = str(b, "ItemID", e.ItemID)
		b = str(b, "Phase", e.Phase)
	case norm.ThinkingDelta:
		b = append(b, "ThinkingDelta"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "Text", e.Text)
		b = str(b, "Signature", string(e.Signature))
		b = str(b, "Encrypted", string(e.Encrypted))
		b = flag(b, "Redacted", e.Redacted)
		b = str(b, "Format", e.Format)
		b = str(b, "ItemID", e.ItemID)
	case norm.ToolCallStart:
		b = append(b, "ToolCallStart"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "ID", e.ID)
		b = str(b, "Name", e.Name)
		b = str(b, "ItemID", e.ItemID)
	case norm.ToolCallDelta:
		b = append(b, "ToolCallDelta"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "Arguments", e.Arguments)
	case norm.ToolCallEnd:
		b = append(b, "ToolCallEnd"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "Signature", string(e.Signature))
	case norm.OtherBlock:
		b = append(b, "OtherBlock"...)
		b = num(b, "Index", int64(e.Index))
		b = str(b, "Type", e.Type)
		b = str(b, "Raw", string(e.Raw))
	case norm.Done:
		b = append(b, "Done"...)
		b = str(b, "Reason", string(e.Reason))
		b = str(b, "Raw", e.Raw)
		b = usage(b, e.Usage)
		b = str(b, "UsageRaw", string(e.UsageRaw))
	case norm.StreamError:
		b = append(b, "StreamError"...)
		b = failure(b, e.Err)
		b = str(b, "Raw", e.Raw)
		b = usage(b, e.Usage)
		b = str(b, "UsageRaw", string(e.UsageRaw))
	default:
		b = append(b, '?')
		b = fmt.Appendf(b, "%T", ev)
	}
	return append(b, '\n')
}

func field(b []byte, name string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	return append(b, '=')
}

func str(b []byte, name, v string) []byte {
	return strconv.AppendQuoteToASCII(field(b, name), v)
}

func num(b []byte, name string, v int64) []byte {
	return strconv.AppendInt(field(b, name), v, 10)
}

func flag(b []byte, name string, v bool) []byte {
	return strconv.AppendBool(field(b, name), v)
}

func amount(b []byte, name string, a norm.Amount) []byte {
	return append(field(b, name), a.String()...)
}

func usage(b []byte, u norm.Usage) []byte {
	return AppendUsage(field(b, "Usage"), u)
}

// AppendUsage appends the trace of u to b: its amounts in braces, each a
// decimal value or "unknown".
func AppendUsage(b []byte, u norm.Usage) []byte {
	b = append(b, "{Input="...)
	b = append(b, u.Input.String()...)
	b = amount(b, "Output", u.Output)
	b = amount(b, "CacheRead", u.CacheRead)
	b = amount(b, "CacheWrite", u.CacheWrite)
	b = amount(b, "Reasoning", u.Reasoning)
	return append(b, '}')
}

func failure(b []byte, e *norm.Error) []byte {
	return AppendError(field(b, "Err"), e)
}

// AppendError appends the trace of e to b: its fields in braces, as in a
// StreamError line, or nil.
func AppendError(b []byte, e *norm.Error) []byte {
	if e == nil {
		return append(b, "nil"...)
	}
	b = append(b, "{Kind="...)
	b = strconv.AppendQuoteToASCII(b, string(e.Kind))
	b = str(b, "Message", e.Message)
	b = flag(b, "Retryable", e.Retryable)
	b = num(b, "RetryAfter", int64(e.RetryAfter))
	b = num(b, "HTTPStatus", int64(e.HTTPStatus))
	b = str(b, "ProviderType", e.ProviderType)
	b = str(b, "Code", e.Code)
	b = str(b, "RequestID", e.RequestID)
	return append(b, '}')
}
