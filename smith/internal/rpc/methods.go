package rpc

import (
	"context"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// method is one method of the table.
type method struct {
	name string
	// immediate methods are served as soon as they are read, even while
	// the ordered lane is held by a wait.
	immediate bool
	run       func(ctx context.Context, s *Server, req *request) (any, error)
}

// Wait bounds.
const (
	defaultWait = time.Minute
	maxWait     = time.Hour
)

// methodTable returns every method by name.
func methodTable() map[string]*method {
	list := []*method{
		{name: protocol.MethodPrompt, run: prompt},
		{name: protocol.MethodSteer, immediate: true, run: input(protocol.DeliverSteer)},
		{name: protocol.MethodFollowUp, immediate: true, run: input(protocol.DeliverFollowUp)},
		{name: protocol.MethodQueueGet, immediate: true, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return sess.Queue(), nil
		})},
		{name: protocol.MethodQueueSet, immediate: true, run: queueSet},
		{name: protocol.MethodQueueClear, immediate: true, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			none := &[]model.UserMessage{}
			return sess.SetQueue(ctx, protocol.SetQueueParams{Steer: none, FollowUp: none})
		})},
		{name: protocol.MethodAbort, immediate: true, run: abort},
		{name: protocol.MethodConfirm, immediate: true, run: confirm},
		{name: protocol.MethodWait, run: wait},
		{name: protocol.MethodSessionList, run: sessionList},
		{name: protocol.MethodSessionOpen, run: sessionOpen},
		{name: protocol.MethodSessionNew, run: sessionNew},
		{name: protocol.MethodSessionContinue, run: sessionContinue},
		{name: protocol.MethodSessionFork, run: sessionFork},
		{name: protocol.MethodSessionSelect, run: sessionSelect},
		{name: protocol.MethodSessionLabel, run: sessionLabel},
		{name: protocol.MethodSessionTree, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return nonNil(sess.Tree()), nil
		})},
		{name: protocol.MethodSessionTurns, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return sess.Turns(ctx)
		})},
		{name: protocol.MethodSessionDiff, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.DiffParams) (any, error) {
			return sess.Diff(ctx, p)
		})},
		{name: protocol.MethodSessionSnapshot, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.SnapshotParams) (any, error) {
			return sess.Snapshot(ctx, p)
		})},
		{name: protocol.MethodSessionUndo, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.UndoParams) (any, error) {
			return sess.Undo(ctx, p)
		})},
		{name: protocol.MethodSessionRedo, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.RedoParams) (any, error) {
			return sess.Redo(ctx, p)
		})},
		{name: protocol.MethodSessionRestore, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.RestoreParams) (any, error) {
			if p.At == "" {
				return nil, errorf(protocol.CodeInvalidParams, "session.restore: params: \"at\" is missing; name the entry by its id or a unique prefix (session.tree lists them), or turn:N")
			}
			return sess.Restore(ctx, p)
		})},
		{name: protocol.MethodSessionCompact, run: withParams(func(ctx context.Context, sess *runtime.Session, p protocol.CompactParams) (any, error) {
			return sess.Compact(ctx, p)
		})},
		{name: protocol.MethodModelGet, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return sess.Model(), nil
		})},
		{name: protocol.MethodModelSet, run: modelSet},
		{name: protocol.MethodModelList, run: modelList},
		{name: protocol.MethodCommandsList, run: commandsList},
		{name: protocol.MethodCommandsRun, run: commandsRun},
		{name: protocol.MethodState, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return sess.State(), nil
		})},
		{name: protocol.MethodStats, run: noParams(func(ctx context.Context, s *Server, sess *runtime.Session) (any, error) {
			return sess.Stats(), nil
		})},
		{name: protocol.MethodShutdown, run: shutdown},
	}
	t := make(map[string]*method, len(list))
	for _, m := range list {
		t[m.name] = m
	}
	return t
}

// withParams is a method with params P that needs an open session.
func withParams[P any](f func(ctx context.Context, sess *runtime.Session, p P) (any, error)) func(context.Context, *Server, *request) (any, error) {
	return func(ctx context.Context, s *Server, req *request) (any, error) {
		var p P
		if err := decodeParams(req.method, req.params, &p); err != nil {
			return nil, err
		}
		sess, err := s.current(ctx, req.method, false, "")
		if err != nil {
			return nil, err
		}
		return f(ctx, sess, p)
	}
}

// noParams is a method without params that needs an open session.
func noParams(f func(ctx context.Context, s *Server, sess *runtime.Session) (any, error)) func(context.Context, *Server, *request) (any, error) {
	return func(ctx context.Context, s *Server, req *request) (any, error) {
		if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
			return nil, err
		}
		sess, err := s.current(ctx, req.method, false, "")
		if err != nil {
			return nil, err
		}
		return f(ctx, s, sess)
	}
}

// nonNil makes a nil slice an empty one, so it is [] on the wire.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func prompt(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.PromptParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if _, err := protocol.ParseDelivery(string(p.Delivery)); err != nil {
		return nil, errorf(protocol.CodeInvalidParams, "prompt: params: %s", strings.TrimPrefix(err.Error(), "protocol: "))
	}
	return submit(ctx, s, req.method, p)
}

func submit(ctx context.Context, s *Server, method string, p protocol.PromptParams) (any, error) {
	if strings.TrimSpace(p.Text) == "" && len(p.Images) == 0 {
		return nil, errorf(protocol.CodeInvalidParams, "%s: params: \"text\" is missing or empty; say what the agent should do", method)
	}
	sess, err := s.current(ctx, method, true, p.Text)
	if err != nil {
		return nil, err
	}
	if err := sess.Submit(context.WithoutCancel(ctx), p); err != nil {
		return nil, err
	}
	return protocol.PromptResult{Session: sess.Info()}, nil
}

// input is steer or follow_up: a prompt under that delivery.
func input(d protocol.Delivery) func(context.Context, *Server, *request) (any, error) {
	return func(ctx context.Context, s *Server, req *request) (any, error) {
		var p protocol.InputParams
		if err := decodeParams(req.method, req.params, &p); err != nil {
			return nil, err
		}
		return submit(ctx, s, req.method, protocol.PromptParams{Text: p.Text, Images: p.Images, Delivery: d})
	}
}

func queueSet(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.SetQueueParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	sess, err := s.current(ctx, req.method, false, "")
	if err != nil {
		return nil, err
	}
	return sess.SetQueue(ctx, p)
}

func abort(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	if sess := s.peek(); sess != nil {
		sess.Abort()
	}
	return protocol.Empty{}, nil
}

// confirm answers a confirmation request. It is immediate: the run that
// asked waits for it, and a wait may hold the ordered lane.
func confirm(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.ConfirmParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.ID == "" {
		return nil, errorf(protocol.CodeInvalidParams, "confirm: params: \"id\" is missing; answer with the id of the confirmation_request event")
	}
	sess, err := s.current(ctx, req.method, false, "")
	if err != nil {
		return nil, err
	}
	if !s.rt.Answers() {
		return nil, errorf(protocol.CodeUsage, "confirm: this server answers every confirmation request no at once, so none waits; start smith rpc with --confirmations to answer them")
	}
	if err := sess.Answer(p.ID, p.Answer); err != nil {
		return nil, err
	}
	return protocol.Empty{}, nil
}

func wait(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.WaitParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	d := time.Duration(p.TimeoutMillis) * time.Millisecond
	switch {
	case p.TimeoutMillis < 0 || d > maxWait:
		return nil, errorf(protocol.CodeInvalidParams, "wait: params: timeout_ms %d is not between 0 and %d (one hour); wait again to wait longer", p.TimeoutMillis, maxWait.Milliseconds())
	case p.TimeoutMillis == 0:
		d = defaultWait
	}
	sess, fwd := s.peek(), s.forwarder()
	if sess == nil {
		return protocol.WaitResult{Settled: true}, nil
	}
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	end, err := sess.Wait(wctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errorf(protocol.CodeShuttingDown, "wait: the server is shutting down")
		}
		return protocol.WaitResult{Settled: false}, nil
	}
	if end.Reason == "" {
		return protocol.WaitResult{Settled: true}, nil
	}
	// The run's settled event goes out before this response.
	if fwd != nil {
		if err := fwd.waitSettled(wctx, end.Sequence()); err != nil {
			return protocol.WaitResult{Settled: true, End: &end}, nil
		}
	}
	return protocol.WaitResult{Settled: true, End: &end}, nil
}

func sessionList(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	l, err := s.rt.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	return nonNil(l), nil
}

func sessionOpen(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.SessionRefParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.Ref == "" {
		return nil, errorf(protocol.CodeInvalidParams, "session.open: params: \"ref\" is missing; name the session by its name, id or an id prefix of 4+ characters (session.list lists them)")
	}
	sess, err := s.switchTo(ctx, func(old *runtime.Session) (*runtime.Session, error) {
		if old != nil && names(old.Info(), p.Ref) {
			return old, nil
		}
		return s.rt.OpenSession(ctx, p.Ref)
	})
	if err != nil {
		return nil, err
	}
	return sess.Info(), nil
}

// names reports whether ref names the session in: its name, its id or a
// prefix of 4+ characters of its id.
func names(in protocol.SessionInfo, ref string) bool {
	return ref == in.Name || ref == in.ID || len(ref) >= 4 && strings.HasPrefix(in.ID, ref)
}

func sessionNew(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.NewSessionParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	sess, err := s.switchTo(ctx, func(*runtime.Session) (*runtime.Session, error) {
		return s.rt.NewSession(ctx, runtime.NewSessionOptions{Name: p.Name})
	})
	if err != nil {
		return nil, err
	}
	return sess.Info(), nil
}

func sessionContinue(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	sess, err := s.switchTo(ctx, func(old *runtime.Session) (*runtime.Session, error) {
		if old != nil {
			// The current session may be the one to continue: it is open
			// here, so it cannot be opened twice.
			infos, err := s.rt.Sessions(ctx)
			if err != nil {
				return nil, err
			}
			id := old.Info().ID
			for _, in := range infos {
				if in.Cwd == s.rt.Cwd() && in.Damaged == "" {
					if in.ID == id {
						return old, nil
					}
					break
				}
			}
		}
		return s.rt.ContinueSession(ctx)
	})
	if err != nil {
		return nil, err
	}
	return sess.Info(), nil
}

func sessionFork(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.ForkParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	sess, err := s.switchTo(ctx, func(old *runtime.Session) (*runtime.Session, error) {
		if old == nil {
			return nil, errorf(protocol.CodeNoSession, "session.fork: no session is open to fork; open one with session.open or session.continue")
		}
		return old.Fork(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return sess.Info(), nil
}

func sessionSelect(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.SelectParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.Ref == "" {
		return nil, errorf(protocol.CodeInvalidParams, "session.select: params: \"ref\" is missing; name the entry by its id or a unique prefix (session.tree lists them)")
	}
	if p.Instructions != "" && !p.Summarize {
		return nil, errorf(protocol.CodeInvalidParams, "session.select: params: \"instructions\" are for the branch summary; set \"summarize\": true too, or leave them out")
	}
	sess, err := s.current(ctx, req.method, false, "")
	if err != nil {
		return nil, err
	}
	return sess.Select(ctx, p)
}

func sessionLabel(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.LabelParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.Ref == "" {
		return nil, errorf(protocol.CodeInvalidParams, "session.label: params: \"ref\" is missing; name the entry by its id or a unique prefix (session.tree lists them)")
	}
	sess, err := s.current(ctx, req.method, false, "")
	if err != nil {
		return nil, err
	}
	if err := sess.Label(ctx, p.Ref, p.Label); err != nil {
		return nil, err
	}
	return protocol.Empty{}, nil
}

func modelSet(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.SetModelParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.Model == "" && p.Thinking == "" {
		return nil, errorf(protocol.CodeInvalidParams, "model.set: params: give \"model\", \"thinking\" or both (model.list lists the models)")
	}
	sess, err := s.current(ctx, req.method, true, "")
	if err != nil {
		return nil, err
	}
	if err := sess.SetModel(ctx, p); err != nil {
		return nil, err
	}
	return sess.Model(), nil
}

func modelList(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	return s.rt.Models(ctx)
}

func commandsList(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	l, err := s.rt.Commands(ctx)
	if err != nil {
		return nil, err
	}
	return nonNil(l), nil
}

func commandsRun(ctx context.Context, s *Server, req *request) (any, error) {
	var p protocol.RunCommandParams
	if err := decodeParams(req.method, req.params, &p); err != nil {
		return nil, err
	}
	if p.Name == "" {
		return nil, errorf(protocol.CodeInvalidParams, "commands.run: params: \"name\" is missing; commands.list lists the commands")
	}
	sess, err := s.current(ctx, req.method, true, "")
	if err != nil {
		return nil, err
	}
	res, err := sess.RunCommand(ctx, p)
	if err != nil {
		return nil, err
	}
	res.Content = nonNil(res.Content)
	return res, nil
}

func shutdown(ctx context.Context, s *Server, req *request) (any, error) {
	if err := decodeParams(req.method, req.params, &struct{}{}); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.shutdownPending = req.id
	s.mu.Unlock()
	s.stop()
	return nil, errDeferred
}
