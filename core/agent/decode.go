package agent

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/core/model"
)

// UnmarshalEvent decodes one event encoded by [MarshalEvent]. Unknown types
// and malformed payloads are errors naming the type.
func UnmarshalEvent(b []byte) (Event, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("agent: decode event: %w", err)
	}
	ev, err := decodeEvent(head.Type, b)
	if err != nil {
		return nil, fmt.Errorf("agent: decode %s event: %w", head.Type, err)
	}
	return ev, nil
}

func decodeEvent(typ string, b []byte) (Event, error) {
	switch typ {
	case "agent_start":
		return decodeInto[AgentStart](b)
	case "turn_start":
		return decodeInto[TurnStart](b)
	case "compaction_start":
		return decodeInto[CompactionStart](b)
	case "compaction_end":
		return decodeInto[CompactionEnd](b)
	case "agent_end":
		return decodeInto[AgentEnd](b)
	case "settled":
		return decodeInto[Settled](b)
	case "tool_execution_start":
		return decodeInto[ToolExecutionStart](b)
	case "message_start", "message_end":
		var w struct {
			Seq
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		m, err := model.UnmarshalMessage(w.Message)
		if err != nil {
			return nil, err
		}
		if typ == "message_start" {
			return MessageStart{Seq: w.Seq, Message: m}, nil
		}
		return MessageEnd{Seq: w.Seq, Message: m}, nil
	case "message_update":
		var w struct {
			Seq
			Delta json.RawMessage `json:"delta"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		d, err := model.UnmarshalStreamEvent(w.Delta)
		if err != nil {
			return nil, err
		}
		return MessageUpdate{Seq: w.Seq, Delta: d}, nil
	case "tool_execution_update":
		var w struct {
			Seq
			CallID  string            `json:"call_id"`
			Name    string            `json:"name"`
			Partial []json.RawMessage `json:"partial"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		ev := ToolExecutionUpdate{Seq: w.Seq, CallID: w.CallID, Name: w.Name}
		for _, r := range w.Partial {
			c, err := model.UnmarshalContent(r)
			if err != nil {
				return nil, err
			}
			ev.Partial = append(ev.Partial, c)
		}
		return ev, nil
	case "tool_execution_end":
		var w struct {
			Seq
			CallID string          `json:"call_id"`
			Name   string          `json:"name"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		res, err := toolResult(w.Result)
		if err != nil {
			return nil, err
		}
		return ToolExecutionEnd{Seq: w.Seq, CallID: w.CallID, Name: w.Name, Result: res}, nil
	case "turn_end":
		var w struct {
			Seq
			Turn        int               `json:"turn"`
			Message     json.RawMessage   `json:"message"`
			ToolResults []json.RawMessage `json:"tool_results"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		m, err := model.UnmarshalMessage(w.Message)
		if err != nil {
			return nil, err
		}
		am, ok := m.(model.AssistantMessage)
		if !ok {
			return nil, fmt.Errorf("message is a %s message, want assistant", m.Role())
		}
		ev := TurnEnd{Seq: w.Seq, Turn: w.Turn, Message: am, ToolResults: []model.ToolResultMessage{}}
		for _, r := range w.ToolResults {
			res, err := toolResult(r)
			if err != nil {
				return nil, err
			}
			ev.ToolResults = append(ev.ToolResults, res)
		}
		return ev, nil
	case "queue_update":
		var w struct {
			Seq
			Steer    []json.RawMessage `json:"steer"`
			FollowUp []json.RawMessage `json:"follow_up"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		steer, err := userMessages(w.Steer)
		if err != nil {
			return nil, err
		}
		follow, err := userMessages(w.FollowUp)
		if err != nil {
			return nil, err
		}
		return QueueUpdate{Seq: w.Seq, Steer: steer, FollowUp: follow}, nil
	}
	return nil, fmt.Errorf("unknown event type %q", typ)
}

func decodeInto[T Event](b []byte) (Event, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

func toolResult(b []byte) (model.ToolResultMessage, error) {
	m, err := model.UnmarshalMessage(b)
	if err != nil {
		return model.ToolResultMessage{}, err
	}
	res, ok := m.(model.ToolResultMessage)
	if !ok {
		return model.ToolResultMessage{}, fmt.Errorf("result is a %s message, want tool_result", m.Role())
	}
	return res, nil
}

func userMessages(raws []json.RawMessage) ([]model.UserMessage, error) {
	out := []model.UserMessage{}
	for _, r := range raws {
		m, err := model.UnmarshalMessage(r)
		if err != nil {
			return nil, err
		}
		u, ok := m.(model.UserMessage)
		if !ok {
			return nil, fmt.Errorf("queued message is a %s message, want user", m.Role())
		}
		out = append(out, u)
	}
	return out, nil
}
