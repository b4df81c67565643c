// Package codec selects the codec of a wire API by name: the decoder of its
// response streams, the classifier of its error responses and its request
// builder. It is what the plugin wrapper calls.
package codec
