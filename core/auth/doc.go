// Package auth resolves provider credentials before dispatch: from explicit
// configuration, then environment variables, then Smith's auth file
// ([File]: mode 0600, locked and atomically replaced on every change, so
// concurrent changes to different providers never lose each other). The
// variable names come from the provider plugins ([Spec]); this package
// knows no vendor.
//
// A credential value is a [Secret]: it prints and encodes as "[redacted]"
// everywhere, and errors and statuses never contain it. [Resolver.Check]
// reports where each provider's credential comes from without a model
// request.
package auth
