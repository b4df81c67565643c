package guest

import (
	"strings"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/types"
)

// now is the clock HTTP-date retry-after values are resolved against.
var now = time.Now

// ClassifyFailure classifies a non-2xx response from its body and the
// headers the host passed (request ids, x-should-retry, retry-after,
// retry-after-ms, x-ratelimit-*); vendor hints in the body (Gemini's
// RetryInfo, OpenAI's "try again in") are read by the codecs. A header
// repeated in the list keeps its first value.
func (Plugin) ClassifyFailure(body []byte, o provider.ClassifyOptions) provider.Failure {
	e, err := lookup(o.Provider)
	if err != nil {
		return provider.Failure{Kind: types.FailureKindUnknown, Message: err.Error()}
	}
	h := make(retryhint.Headers, len(o.Headers))
	for _, kv := range o.Headers {
		k := strings.ToLower(kv.Name)
		if _, dup := h[k]; !dup {
			h[k] = kv.Value
		}
	}
	ne, err := codec.ClassifyResponse(codec.API(e.API), int(o.Status), h, body, now())
	if err != nil {
		return provider.Failure{Kind: types.FailureKindUnknown, Message: err.Error()}
	}
	return failure(ne)
}

var kinds = map[norm.ErrorKind]types.FailureKind{
	norm.ErrAuth: types.FailureKindAuth, norm.ErrInvalidRequest: types.FailureKindInvalidRequest,
	norm.ErrContextOverflow: types.FailureKindContextOverflow, norm.ErrRateLimit: types.FailureKindRateLimit,
	norm.ErrQuota: types.FailureKindQuota, norm.ErrOverloaded: types.FailureKindOverloaded,
	norm.ErrServer: types.FailureKindServer, norm.ErrNotFound: types.FailureKindNotFound,
	norm.ErrTransport: types.FailureKindTransport, norm.ErrTruncated: types.FailureKindTruncated,
	norm.ErrAborted: types.FailureKindAborted, norm.ErrMalformed: types.FailureKindMalformed,
}

func failure(e *norm.Error) provider.Failure {
	k, ok := kinds[e.Kind]
	if !ok {
		k = types.FailureKindUnknown
	}
	f := provider.Failure{Kind: k, Message: e.Message, Retryable: e.Retryable, ProviderType: optText(e.ProviderType),
		VendorCode: optText(e.Code), RequestID: optText(e.RequestID)}
	if e.RetryAfter > 0 {
		ms := uint64(e.RetryAfter.Milliseconds())
		f.RetryAfterMs = &ms
	}
	if e.HTTPStatus >= 100 && e.HTTPStatus <= 599 {
		st := uint16(e.HTTPStatus)
		f.HTTPStatus = &st
	}
	return f
}
