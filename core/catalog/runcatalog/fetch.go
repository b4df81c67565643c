package runcatalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/httpengine"
)

// maxDocument bounds a fetched document, as core/catalog bounds a parsed
// one.
const maxDocument = 8 << 20

// newEngine returns the HTTP engine refreshes use: httpengine's bounds,
// with the response body bounded to a catalog document.
func newEngine() (*httpengine.Engine, error) {
	return httpengine.New(httpengine.Config{MaxResponseBody: maxDocument})
}

// fetcher returns the catalog.Fetch of url through the engine engine
// makes. The document must arrive whole with status 200.
func fetcher(engine func() (*httpengine.Engine, error), url string) catalog.Fetch {
	return func(ctx context.Context) ([]byte, error) {
		eng, err := engine()
		if err != nil {
			return nil, err
		}
		resp, err := eng.Exchange(ctx, httpengine.Request{URL: url, Header: http.Header{"Accept": {"application/json"}}})
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("the server answered %q, not 200 OK with a catalog document; check the URL", resp.Status)
		}
		var b []byte
		for chunk, ok := resp.Body.Next(); ok; chunk, ok = resp.Body.Next() {
			b = append(b, chunk...)
		}
		switch end := resp.Body.End(); end.Outcome {
		case httpengine.Complete:
			return b, nil
		case httpengine.Truncated:
			return nil, fmt.Errorf("the document is larger than %d bytes, far more than a catalog; check the URL", maxDocument)
		case httpengine.Cancelled:
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, errors.New("the response body was cancelled")
		default:
			return nil, end.Err
		}
	}
}
