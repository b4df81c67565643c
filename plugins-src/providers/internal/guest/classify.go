package guest

import (
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/types"
)

// now is the clock HTTP-date retry-after values are resolved against.
var now = time.Now

// ClassifyFailure classifies a non-2xx response body. The world passes only
// the retry-after header; vendor hints in the body (Gemini's RetryInfo,
// OpenAI's "try again in") are read by the codecs.
func (Plugin) ClassifyFailure(body []byte, o provider.ClassifyOptions) provider.Failure {
	e, err := lookup(o.Provider)
	if err != nil {
		return provider.Failure{Kind: types.FailureKindUnknown, Message: err.Error()}
	}
	h := retryhint.Headers{}
	if o.RetryAfter != nil {
		h["retry-after"] = *o.RetryAfter
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
	norm.ErrAborted: types.FailureKindAborted,
}

func failure(e *norm.Error) provider.Failure {
	k, ok := kinds[e.Kind]
	if !ok {
		k = types.FailureKindUnknown
	}
	f := provider.Failure{Kind: k, Message: e.Message}
	if e.RetryAfter > 0 {
		ms := uint64(e.RetryAfter.Milliseconds())
		f.RetryAfterMs = &ms
	}
	return f
}
