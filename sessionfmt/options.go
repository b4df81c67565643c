package sessionfmt

import "io/fs"

// Default bounds. Every one is checked before the memory it guards is
// allocated.
const (
	DefaultMaxFrame   = 16 << 20 // stored payload of one frame
	DefaultMaxPayload = 16 << 20 // uncompressed payload of one frame
	DefaultMaxSession = 1 << 30  // uncompressed entry payload of a whole session
	DefaultMaxSkips   = 16       // corrupt frames skipped before a load fails
)

// Options tune reading and writing. The zero value, and a nil *Options,
// mean the defaults. Options are read, never modified.
type Options struct {
	MaxFrame   int // largest stored frame payload; default DefaultMaxFrame
	MaxPayload int // largest uncompressed frame payload; default DefaultMaxPayload
	MaxSession int // largest total uncompressed entry payload; default DefaultMaxSession
	MaxSkips   int // most corrupt frames skipped; default DefaultMaxSkips
	// WaitLock makes Open and Create wait for another writer to close the
	// session instead of failing at once. Default false.
	WaitLock bool
	// Perm is the permission of files created; default 0o600.
	Perm fs.FileMode
}

func (o *Options) norm() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxFrame <= 0 {
		r.MaxFrame = DefaultMaxFrame
	}
	r.MaxFrame = min(r.MaxFrame, 1<<31)
	if r.MaxPayload <= 0 {
		r.MaxPayload = DefaultMaxPayload
	}
	r.MaxPayload = min(r.MaxPayload, 1<<30)
	if r.MaxSession <= 0 {
		r.MaxSession = DefaultMaxSession
	}
	if r.MaxSkips <= 0 {
		r.MaxSkips = DefaultMaxSkips
	}
	if r.Perm == 0 {
		r.Perm = 0o600
	}
	return r
}
