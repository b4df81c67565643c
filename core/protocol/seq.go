package protocol

import "github.com/smith-agent/smith/core/model"

// Numbered returns ev with sequence number n, for an event made before its
// place in a stream was known (a replayed event, a notice of a summary
// request). Every event type of this package is numbered; any other Event
// is returned as it is.
func Numbered(ev Event, n uint64) Event {
	s := Seq{N: n}
	switch e := ev.(type) {
	case AgentStart:
		e.Seq = s
		return e
	case TurnStart:
		e.Seq = s
		return e
	case MessageStart:
		e.Seq = s
		return e
	case MessageUpdate:
		e.Seq = s
		return e
	case MessageEnd:
		e.Seq = s
		return e
	case ToolExecutionStart:
		e.Seq = s
		return e
	case ToolExecutionUpdate:
		e.Seq = s
		return e
	case ToolExecutionEnd:
		e.Seq = s
		return e
	case TurnEnd:
		e.Seq = s
		return e
	case CompactionStart:
		e.Seq = s
		return e
	case CompactionEnd:
		e.Seq = s
		return e
	case QueueUpdate:
		e.Seq = s
		return e
	case ProviderRetry:
		e.Seq = s
		return e
	case ProviderFailover:
		e.Seq = s
		return e
	case ModelChange:
		e.Seq = s
		return e
	case PluginsReloaded:
		e.Seq = s
		return e
	case Notice:
		e.Seq = s
		return e
	case AgentEnd:
		e.Seq = s
		return e
	case Settled:
		e.Seq = s
		return e
	}
	return ev
}

// RoutingEvent returns the event that reports a routing notice of a
// provider stream (a [model.Retrying], [model.FailingOver] or [model.Note])
// with sequence number n, and false for any other stream event (provider
// output).
func RoutingEvent(ev model.StreamEvent, n uint64) (Event, bool) {
	s := Seq{N: n}
	switch e := ev.(type) {
	case model.Retrying:
		return ProviderRetry{Seq: s, Target: e.Target, Attempt: e.Attempt, Error: e.Err, WaitMillis: e.Wait.Milliseconds()}, true
	case model.FailingOver:
		return ProviderFailover{Seq: s, From: e.From, To: e.To, Error: e.Err}, true
	case model.Note:
		level := NoticeWarning
		if e.Progress {
			level = NoticeInfo
		}
		return Notice{Seq: s, Level: level, Text: e.Text}, true
	}
	return nil, false
}
