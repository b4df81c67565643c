package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/wasmhost"
)

// Bounds of the http capability's send-request.
const (
	// DefaultHTTPTimeout is the wall-time limit of an exchange whose
	// timeout-ms is 0; any limit is also cut to the plugin's call timeout
	// and the call's deadline.
	DefaultHTTPTimeout = 30 * time.Second
	// DefaultHTTPBodyLimit is the response body kept when body-limit is
	// 0; a longer body is a too-large fault.
	DefaultHTTPBodyLimit = 16 << 20
	// MaxHTTPBodyLimit caps body-limit: the engine's own response bound.
	MaxHTTPBodyLimit = httpengine.DefaultMaxResponseBody
	// maxRecordedURL bounds the URL kept in an effect's intent.
	maxRecordedURL = 2048
)

// netScope is one network scope of an "http" grant, parsed.
type netScope struct {
	scheme, host, port string
	// path is the prefix's path without its trailing '/'; "" admits every
	// path of the origin.
	path string
}

// parseScopes parses an artifact's Network prefixes.
func parseScopes(a Artifact) ([]netScope, error) {
	out := make([]netScope, 0, len(a.Network))
	for _, raw := range a.Network {
		s, why := parseScope(raw)
		if why != "" {
			return nil, fmt.Errorf("plugin: network scope %q of %q %s; give an absolute prefix such as \"https://api.example.com/v1\"", raw, a.Name, why)
		}
		out = append(out, s)
	}
	return out, nil
}

func parseScope(raw string) (netScope, string) {
	u, why := parseTarget(raw)
	if why != "" {
		return netScope{}, why
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return netScope{}, "has a query or fragment"
	}
	return netScope{scheme: u.Scheme, host: strings.ToLower(u.Hostname()), port: portOf(u), path: strings.TrimSuffix(u.Path, "/")}, ""
}

// parseTarget parses an absolute http(s) URL a scope may name or a request
// may reach, or says why it is not one: user info, a "." or ".." path
// segment (also percent-encoded), a backslash in the path, and plain http
// to another machine are refused.
func parseTarget(raw string) (*url.URL, string) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, "is not a URL"
	case u.Scheme != "http" && u.Scheme != "https", u.Hostname() == "", u.Opaque != "":
		return nil, "is not an absolute http or https URL"
	case u.User != nil:
		return nil, "carries user info"
	case config.RemoteHTTP(raw):
		return nil, "is plain http to another machine; use https (plain http reaches only localhost)"
	case strings.Contains(u.Path, `\`):
		return nil, "has a backslash in its path"
	}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if seg == "." || seg == ".." {
			return nil, "has a \".\" or \"..\" path segment"
		}
	}
	return u, ""
}

// portOf is u's port, the scheme's default when it names none.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// admits reports whether u lies in s: the same scheme, host and port, and
// a path equal to the scope's or beneath it on a segment boundary.
func (s netScope) admits(u *url.URL) bool {
	if u.Scheme != s.scheme || strings.ToLower(u.Hostname()) != s.host || portOf(u) != s.port {
		return false
	}
	return s.path == "" || u.Path == s.path || strings.HasPrefix(u.Path, s.path+"/")
}

// netHost serves the http capability of one plugin.
type netHost struct {
	plugin  string
	h       *Host
	scopes  []netScope
	timeout time.Duration // the plugin's call timeout
	secrets []string      // Artifact.Secrets
}

// mayReceive reports whether the plugin may receive the registered secret
// name in a header: its artifact grants it (Artifact.Secrets).
func (n *netHost) mayReceive(name string) bool { return slices.Contains(n.secrets, name) }

var _ pluginabi.HTTPImports = (*netHost)(nil)

func newNetHost(h *Host, a Artifact) (*netHost, error) {
	scopes, err := parseScopes(a)
	if err != nil {
		return nil, err
	}
	t := a.Timeout
	if t <= 0 {
		t = wasmhost.DefaultTimeout
	}
	return &netHost{plugin: a.Name, h: h, scopes: scopes, timeout: t, secrets: slices.Clone(a.Secrets)}, nil
}

// admit returns the request URL parsed when it lies in a scope.
func (n *netHost) admit(raw string) (*url.URL, bool) {
	u, why := parseTarget(raw)
	if why != "" {
		return nil, false
	}
	for _, s := range n.scopes {
		if s.admits(u) {
			return u, true
		}
	}
	return nil, false
}

// httpInput is the intent input of an exchange (kind "http.request"):
// never a header value or the body, which may hold secrets.
type httpInput struct {
	Method      string   `json:"method"`
	URL         string   `json:"url"`
	HeaderNames []string `json:"header_names,omitempty"`
	BodyBytes   int      `json:"body_bytes"`
	// Secrets are the names of the secrets restored into header values.
	Secrets   []string `json:"secrets,omitempty"`
	TimeoutMs int64    `json:"timeout_ms"`
	BodyLimit uint64   `json:"body_limit"`
}

// httpOutput is the completion output of an exchange.
type httpOutput struct {
	Status    int   `json:"status"`
	BodyBytes int64 `json:"body_bytes"`
}

// SendRequest serves http send-request: a URL outside every network scope
// of the grant is a scope-denied fault before anything else happens;
// otherwise the exchange runs through the host's httpengine as a
// journaled effect (kind "http.request") attributed to the tool call, with
// the allowed secret references of the header values restored just before
// it is sent, and the response's header values and body redacted of the
// registered secrets. Redirects are not followed: a 3xx is the response.
func (n *netHost) SendRequest(ctx context.Context, req pluginabi.Request, o pluginabi.SendOptions) (pluginabi.Response, error) {
	st, err := callOf(ctx)
	if err != nil {
		return pluginabi.Response{}, err
	}
	if why := st.permits("http"); why != "" {
		return pluginabi.Response{}, pluginabi.HTTPFault{Case: pluginabi.HTTPFaultScopeDenied, ScopeDenied: why}
	}
	if _, ok := n.admit(req.URL); !ok {
		return pluginabi.Response{}, pluginabi.HTTPFault{Case: pluginabi.HTTPFaultScopeDenied, ScopeDenied: req.URL}
	}
	if st.readOnly {
		return pluginabi.Response{}, pluginabi.HTTPFault{Case: pluginabi.HTTPFaultUnknown,
			Unknown: "a prompt or context transform may only read files; send requests from a tool"}
	}
	inv, ok := hostops.InvocationFrom(ctx)
	if !ok {
		return pluginabi.Response{}, errors.New("plugin: an http import ran without an invocation; only tool invocations may send requests")
	}
	eng, err := n.h.httpEngine()
	if err != nil {
		return pluginabi.Response{}, pluginabi.HTTPFault{Case: pluginabi.HTTPFaultUnknown, Unknown: "the host's HTTP engine is unavailable: " + err.Error()}
	}
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = http.MethodGet
	}
	limit := o.BodyLimit
	if limit == 0 {
		limit = DefaultHTTPBodyLimit
	}
	limit = min(limit, MaxHTTPBodyLimit)
	timeout := DefaultHTTPTimeout
	if o.TimeoutMs > 0 {
		timeout = time.Duration(o.TimeoutMs) * time.Millisecond
	}
	timeout = min(timeout, n.timeout)
	if d, ok := ctx.Deadline(); ok {
		timeout = max(min(timeout, time.Until(d)), 0)
	}

	secrets := st.ops.Secrets
	header := make(http.Header, len(req.Headers))
	var names, restored, secretHeaders []string
	for _, h := range req.Headers {
		v := h.Value
		if secrets != nil && len(n.secrets) > 0 {
			var got []string
			v, got = secrets.Restore(v, n.mayReceive)
			if len(got) > 0 {
				restored = append(restored, got...)
				secretHeaders = append(secretHeaders, h.Name)
			}
		}
		header.Add(h.Name, v)
		names = append(names, h.Name)
	}
	slices.Sort(restored)
	restored = slices.Compact(restored)
	shown := req.URL
	if secrets != nil {
		shown = secrets.RedactString(shown)
	}
	if len(shown) > maxRecordedURL {
		shown = shown[:maxRecordedURL] + "…"
	}
	in, err := json.Marshal(httpInput{Method: method, URL: shown, HeaderNames: names, BodyBytes: len(req.Body),
		Secrets: restored, TimeoutMs: timeout.Milliseconds(), BodyLimit: limit})
	if err != nil {
		return pluginabi.Response{}, fmt.Errorf("plugin: encode the http.request input: %w", err)
	}

	var resp pluginabi.Response
	var fault *pluginabi.HTTPFault
	c, jerr := st.ops.Journal.Run(ctx, effect.Intent{Kind: "http.request", Parent: inv.CallID, Generation: inv.Generation, Input: in},
		func(ctx context.Context) effect.Outcome {
			var out httpOutput
			var m model.Mutation
			resp, out, m, fault = n.exchange(ctx, eng, httpengine.Request{Method: method, URL: req.URL, Header: header,
				Body: req.Body, SecretHeaders: secretHeaders}, timeout, limit)
			oc := effect.Outcome{Mutation: m}
			if out.Status != 0 {
				oc.Output, _ = json.Marshal(out)
			}
			if fault != nil {
				f := *fault
				if secrets != nil {
					f.ScopeDenied, f.Transport, f.Unknown = secrets.RedactString(f.ScopeDenied), secrets.RedactString(f.Transport), secrets.RedactString(f.Unknown)
				}
				*fault = f
				oc.Err = f
			}
			return oc
		})
	if jerr != nil {
		// The intent was not recorded (nothing was sent) or the completion
		// was not: a host error either way, as for fs and process.
		return pluginabi.Response{}, jerr
	}
	st.noteHTTP(method, c.Mutation)
	if fault != nil {
		return pluginabi.Response{}, *fault
	}
	if secrets != nil {
		for i := range resp.Headers {
			resp.Headers[i].Value = secrets.RedactString(resp.Headers[i].Value)
		}
		resp.Body, _ = secrets.Redact(resp.Body)
	}
	return resp, nil
}

// exchange runs one request within timeout, keeping at most limit bytes of
// body, and returns the response or the fault, what to record and the
// mutation state.
func (n *netHost) exchange(ctx context.Context, eng *httpengine.Engine, req httpengine.Request, timeout time.Duration, limit uint64) (pluginabi.Response, httpOutput, model.Mutation, *pluginabi.HTTPFault) {
	ms := uint32(min(timeout.Milliseconds(), 1<<32-1))
	xctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// A deadline passed (the exchange's or the call's, which capped it)
	// rather than the call being cancelled.
	timedOut := func() bool { return xctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) }
	r, err := eng.Exchange(xctx, req)
	if err != nil {
		var xe *httpengine.Error
		errors.As(err, &xe)
		m := model.MutationUnknown
		if xe != nil && (xe.Kind == httpengine.KindRequest || xe.Kind == httpengine.KindDNS || xe.Kind == httpengine.KindConnect) {
			m = model.MutationNotApplied // nothing reached the server
		}
		switch {
		case timedOut() || xe != nil && xe.Kind == httpengine.KindTimeout:
			return pluginabi.Response{}, httpOutput{}, m, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTimeout, Timeout: ms}
		case xe != nil && xe.Kind == httpengine.KindRequest:
			return pluginabi.Response{}, httpOutput{}, m, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultUnknown, Unknown: err.Error()}
		case ctx.Err() != nil:
			return pluginabi.Response{}, httpOutput{}, m, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultUnknown, Unknown: "the call was cancelled before the response arrived"}
		}
		return pluginabi.Response{}, httpOutput{}, m, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTransport, Transport: err.Error()}
	}
	out := httpOutput{Status: r.StatusCode}
	tooLarge := func() (pluginabi.Response, httpOutput, model.Mutation, *pluginabi.HTTPFault) {
		return pluginabi.Response{}, out, model.MutationApplied, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTooLarge, TooLarge: limit}
	}
	if r.ContentLength > 0 && uint64(r.ContentLength) > limit {
		r.Body.Close()
		out.BodyBytes = r.ContentLength
		return tooLarge()
	}
	var body []byte
	if r.ContentLength > 0 {
		body = make([]byte, 0, r.ContentLength)
	}
	for chunk, ok := r.Body.Next(); ok; chunk, ok = r.Body.Next() {
		if uint64(len(body))+uint64(len(chunk)) > limit {
			r.Body.Close()
			out.BodyBytes = int64(len(body) + len(chunk))
			return tooLarge()
		}
		body = append(body, chunk...)
	}
	out.BodyBytes = int64(len(body))
	switch end := r.Body.End(); end.Outcome {
	case httpengine.Complete:
	case httpengine.Truncated:
		return tooLarge()
	case httpengine.Cancelled:
		if timedOut() {
			return pluginabi.Response{}, out, model.MutationApplied, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTimeout, Timeout: ms}
		}
		return pluginabi.Response{}, out, model.MutationApplied, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultUnknown, Unknown: "the call was cancelled while the body arrived"}
	default:
		var xe *httpengine.Error
		if errors.As(end.Err, &xe) && xe.Kind == httpengine.KindTimeout || timedOut() {
			return pluginabi.Response{}, out, model.MutationApplied, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTimeout, Timeout: ms}
		}
		return pluginabi.Response{}, out, model.MutationApplied, &pluginabi.HTTPFault{Case: pluginabi.HTTPFaultTransport, Transport: fmt.Sprint(end.Err)}
	}
	resp := pluginabi.Response{Status: uint16(r.StatusCode), Body: body}
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range r.Header[k] {
			resp.Headers = append(resp.Headers, pluginabi.Header{Name: k, Value: v})
		}
	}
	return resp, out, model.MutationApplied, nil
}
