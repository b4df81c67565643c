package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/core/model"
)

// EventTypes lists every event's wire discriminator, in the order the
// variants are declared.
var EventTypes = []string{
	"agent_start", "turn_start", "message_start", "message_update", "message_end",
	"tool_execution_start", "tool_execution_update", "tool_execution_end", "turn_end",
	"compaction_start", "compaction_end", "queue_update", "provider_retry",
	"provider_failover", "model_change", "plugins_reloaded", "notice", "confirmation_request", "confirmation_end",
	"agent_end", "settled",
}

// EventType returns the wire discriminator of e ("agent_start", …), or ""
// for nil.
func EventType(e Event) string {
	switch e.(type) {
	case AgentStart:
		return "agent_start"
	case TurnStart:
		return "turn_start"
	case MessageStart:
		return "message_start"
	case MessageUpdate:
		return "message_update"
	case MessageEnd:
		return "message_end"
	case ToolExecutionStart:
		return "tool_execution_start"
	case ToolExecutionUpdate:
		return "tool_execution_update"
	case ToolExecutionEnd:
		return "tool_execution_end"
	case TurnEnd:
		return "turn_end"
	case CompactionStart:
		return "compaction_start"
	case CompactionEnd:
		return "compaction_end"
	case QueueUpdate:
		return "queue_update"
	case ProviderRetry:
		return "provider_retry"
	case ProviderFailover:
		return "provider_failover"
	case ModelChange:
		return "model_change"
	case PluginsReloaded:
		return "plugins_reloaded"
	case Notice:
		return "notice"
	case ConfirmationRequest:
		return "confirmation_request"
	case ConfirmationEnd:
		return "confirmation_end"
	case AgentEnd:
		return "agent_end"
	case Settled:
		return "settled"
	}
	return ""
}

// MarshalEvent encodes e as one JSON object whose first field is its
// "type", on one line (no newline inside or after it).
func MarshalEvent(e Event) ([]byte, error) {
	typ := EventType(e)
	if typ == "" {
		return nil, fmt.Errorf("protocol: %T is not an event of this protocol", e)
	}
	body, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("protocol: encode %s event: %w", typ, err)
	}
	out := make([]byte, 0, len(body)+len(typ)+10)
	out = append(out, `{"type":"`...)
	out = append(out, typ...)
	out = append(out, '"')
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// UnmarshalEvent decodes one event as [MarshalEvent] writes it. An unknown
// "type" is an error naming it; fields the variant does not have are
// ignored, so a newer producer's additions do not break an older reader.
func UnmarshalEvent(b []byte) (Event, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("protocol: an event is not a JSON object: %w", err)
	}
	if head.Type == nil {
		return nil, fmt.Errorf("protocol: the event %.60q has no \"type\" field", b)
	}
	typ := *head.Type
	switch typ {
	case "agent_start":
		return decode[AgentStart](b, typ)
	case "turn_start":
		return decode[TurnStart](b, typ)
	case "message_start":
		return decodeMessageEvent(b, typ, func(s Seq, m model.Message) Event { return MessageStart{Seq: s, Message: m} })
	case "message_update":
		var w struct {
			Seq
			Delta json.RawMessage `json:"delta"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fieldError(typ, err)
		}
		d, err := model.UnmarshalStreamEvent(w.Delta)
		if err != nil {
			return nil, fieldError(typ, err)
		}
		return MessageUpdate{Seq: w.Seq, Delta: d}, nil
	case "message_end":
		return decodeMessageEvent(b, typ, func(s Seq, m model.Message) Event { return MessageEnd{Seq: s, Message: m} })
	case "tool_execution_start":
		return decode[ToolExecutionStart](b, typ)
	case "tool_execution_update":
		var w struct {
			Seq
			CallID  string          `json:"call_id"`
			Name    string          `json:"name"`
			Partial json.RawMessage `json:"partial"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fieldError(typ, err)
		}
		var um model.UserMessage
		if len(w.Partial) > 0 {
			if err := json.Unmarshal([]byte(`{"content":`+string(w.Partial)+`}`), &um); err != nil {
				return nil, fieldError(typ, err)
			}
		}
		return ToolExecutionUpdate{Seq: w.Seq, CallID: w.CallID, Name: w.Name, Partial: um.Content}, nil
	case "tool_execution_end":
		return decode[ToolExecutionEnd](b, typ)
	case "turn_end":
		return decode[TurnEnd](b, typ)
	case "compaction_start":
		return decode[CompactionStart](b, typ)
	case "compaction_end":
		return decode[CompactionEnd](b, typ)
	case "queue_update":
		return decode[QueueUpdate](b, typ)
	case "provider_retry":
		return decode[ProviderRetry](b, typ)
	case "provider_failover":
		return decode[ProviderFailover](b, typ)
	case "model_change":
		return decode[ModelChange](b, typ)
	case "plugins_reloaded":
		return decode[PluginsReloaded](b, typ)
	case "notice":
		return decode[Notice](b, typ)
	case "confirmation_request":
		return decode[ConfirmationRequest](b, typ)
	case "confirmation_end":
		return decode[ConfirmationEnd](b, typ)
	case "agent_end":
		return decode[AgentEnd](b, typ)
	case "settled":
		return decode[Settled](b, typ)
	}
	return nil, fmt.Errorf("protocol: unknown event type %q; this reader knows %v", typ, EventTypes)
}

func decode[T Event](b []byte, typ string) (Event, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fieldError(typ, err)
	}
	return v, nil
}

func decodeMessageEvent(b []byte, typ string, mk func(Seq, model.Message) Event) (Event, error) {
	var w struct {
		Seq
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fieldError(typ, err)
	}
	m, err := model.UnmarshalMessage(w.Message)
	if err != nil {
		return nil, fieldError(typ, err)
	}
	return mk(w.Seq, m), nil
}

func fieldError(typ string, err error) error {
	return fmt.Errorf("protocol: decode %s event: %w", typ, err)
}
