package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
)

// ExchangeKind is the effect kind of a provider exchange in the journal.
const ExchangeKind = "provider.exchange"

// exchangeIntent is the journaled input of an exchange: the templated
// request (secrets as ${NAME}) with the body's size and hash rather than
// the body, which can be larger than an intent may be.
type exchangeIntent struct {
	Provider   string      `json:"provider"`
	Model      string      `json:"model"`
	Method     string      `json:"method"`
	URL        string      `json:"url"`
	Header     http.Header `json:"header"`
	BodyBytes  int         `json:"body_bytes"`
	BodySHA256 string      `json:"body_sha256"`
}

// exchangeOutput is the journaled output: the status, how the body ended
// and the response body as received (secrets replaced).
type exchangeOutput struct {
	Status  int    `json:"status"`
	Outcome string `json:"outcome"`
	Body    string `json:"body"`
}

// begin makes the exchange's intent durable before anything is sent.
func (s *stream) begin() error {
	j := s.p.cfg.Journal
	if j == nil {
		return nil
	}
	sum := sha256.Sum256(s.rec.Body)
	in, err := json.Marshal(exchangeIntent{Provider: s.rec.Provider, Model: s.rec.Model, Method: s.rec.Method, URL: s.rec.URL,
		Header: s.rec.Header, BodyBytes: len(s.rec.Body), BodySHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return err
	}
	s.eff, err = j.Begin(s.ctx, effect.Intent{Kind: ExchangeKind, Input: in})
	return err
}

// complete records how the exchange ended; a model request changes nothing
// in the world, so its mutation state is not_applied.
func (s *stream) complete() {
	if s.eff == nil {
		return
	}
	out := encodeExchangeOutput(s.rec.Status, s.rec.Outcome, s.rec.Chunks)
	var err error
	if s.rec.Err != "" {
		err = errors.New(s.rec.Err)
	}
	if _, cerr := s.eff.Complete(effect.Outcome{Mutation: model.MutationNotApplied, Output: out, Err: err}); cerr != nil && s.rec.Err == "" {
		s.rec.Err = fmt.Sprintf("provider: %v", cerr)
	}
	s.eff = nil
}

// encodeExchangeOutput encodes the exchangeOutput of a response whose
// body arrived as chunks, as json.Marshal would, in one buffer of about
// the body's size, straight from the chunks: the body may be megabytes,
// and joining it, converting it to a string and marshalling it held it
// four times over.
func encodeExchangeOutput(status int, outcome string, chunks [][]byte) []byte {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	out := make([]byte, 0, n+n/8+64+len(outcome))
	out = append(out, `{"status":`...)
	out = strconv.AppendInt(out, int64(status), 10)
	out = append(out, `,"outcome":`...)
	out = appendJSONString(out, []byte(outcome))
	out = append(out, `,"body":`...)
	out = appendJSONChunks(out, chunks)
	return append(out, '}')
}
