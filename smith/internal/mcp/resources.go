package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// The session resources: one URI per session and format.
const (
	uriPrefix = "smith://sessions/"
	mdSuffix  = "/transcript.md"
	jsonlTail = "/transcript.jsonl"
	// MIMEMarkdown and MIMEJSONL are the resources' MIME types.
	MIMEMarkdown = "text/markdown"
	MIMEJSONL    = "application/jsonl"
)

// SessionURI returns the URI of the session id's transcript in format f.
func SessionURI(id string, f protocol.TranscriptFormat) string {
	if f == protocol.TranscriptJSONL {
		return uriPrefix + id + jsonlTail
	}
	return uriPrefix + id + mdSuffix
}

// parseURI returns the session id and format a resource URI names.
func parseURI(uri string) (id string, f protocol.TranscriptFormat, mime string, ok bool) {
	rest, found := strings.CutPrefix(uri, uriPrefix)
	if !found {
		return "", "", "", false
	}
	if id, found = strings.CutSuffix(rest, mdSuffix); found {
		f, mime = protocol.TranscriptMarkdown, MIMEMarkdown
	} else if id, found = strings.CutSuffix(rest, jsonlTail); found {
		f, mime = protocol.TranscriptJSONL, MIMEJSONL
	}
	if !found || id == "" || strings.ContainsAny(id, "/?#") {
		return "", "", "", false
	}
	return id, f, mime, true
}

// addResources registers the two transcript templates and makes
// resources/list list every stored session (the listing changes while the
// server runs, so it is computed per request).
func (s *Server) addResources() {
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{Name: "session-transcript-markdown", Title: "Session transcript (Markdown)",
		Description: "The conversation of a Smith session's selected branch.", MIMEType: MIMEMarkdown,
		URITemplate: uriPrefix + "{id}" + mdSuffix}, s.readResource)
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{Name: "session-transcript-jsonl", Title: "Session file (JSONL)",
		Description: "Every frame of a Smith session file — messages, branches, journaled effects — one JSON object per line, as 'smith session dump' writes it.",
		MIMEType:    MIMEJSONL, URITemplate: uriPrefix + "{id}" + jsonlTail}, s.readResource)
	s.sdk.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method != "resources/list" {
				return next(ctx, method, req)
			}
			return s.listResources(ctx)
		}
	})
}

// listResources lists every stored session, most recently active first,
// as its two transcript resources.
func (s *Server) listResources(ctx context.Context) (*sdk.ListResourcesResult, error) {
	infos, err := s.o.Runtime.Sessions(ctx)
	if err != nil {
		return nil, rpcError(err)
	}
	out := &sdk.ListResourcesResult{Resources: make([]*sdk.Resource, 0, 2*len(infos))}
	for _, in := range infos {
		desc := fmt.Sprintf("%d entries", in.Entries)
		if in.Entries == 1 {
			desc = "1 entry"
		}
		if in.Cwd != "" {
			desc += " in " + in.Cwd
		}
		if in.FirstPrompt != "" {
			desc += "; first prompt: " + in.FirstPrompt
		}
		if in.Damaged != "" {
			desc += "; damaged: " + in.Damaged
		}
		name := sessionName(in)
		out.Resources = append(out.Resources,
			&sdk.Resource{URI: SessionURI(in.ID, protocol.TranscriptMarkdown), Name: name, Title: "Session " + name + " (Markdown)", MIMEType: MIMEMarkdown, Description: desc},
			&sdk.Resource{URI: SessionURI(in.ID, protocol.TranscriptJSONL), Name: name + " (jsonl)", Title: "Session " + name + " (JSONL)", MIMEType: MIMEJSONL, Description: desc, Size: in.Size})
	}
	return out, nil
}

// readResource reads one session transcript through the runtime.
func (s *Server) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, f, mime, ok := parseURI(uri)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	var b bytes.Buffer
	if err := s.o.Runtime.Transcript(ctx, &b, id, f); err != nil {
		if errors.Is(err, runtime.ErrUsage) {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		return nil, rpcError(err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: b.String()}}}, nil
}
