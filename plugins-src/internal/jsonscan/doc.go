// Package jsonscan is a small, allocation-light JSON reader for the system
// plugins: the payloads of provider event streams and the built-in tools'
// arguments. The plugins run as WebAssembly, where encoding/json's
// reflection costs an order of magnitude more than native code (and makes
// the module larger); a decoder that reads the fields it knows by hand is
// what keeps the codecs close to native speed and the tools module small.
//
// A [Decoder] reads one JSON text front to back. It accepts exactly the
// texts encoding/json accepts (the same grammar and nesting limit), decodes
// strings the same way (invalid UTF-8 and lone surrogates become U+FFFD),
// and, like encoding/json, reports a syntax error anywhere in the text in
// preference to a type mismatch. Object keys match exactly; encoding/json
// would also match them case-insensitively. [AppendQuote] and
// [AppendCompact] write a string and a raw value byte for byte as
// json.Marshal does.
//
//	var d jsonscan.Decoder
//	d.Reset(data)
//	var id jsonscan.String
//	d.Object(func(key []byte) {
//		switch string(key) {
//		case "id":
//			id = d.Str()
//		}
//	})
//	if err := d.Finish(); err != nil {
//		return err
//	}
//	use(id.String())
package jsonscan
