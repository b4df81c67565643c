package hostfs

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Fault classifies why an operation failed, for callers that map failures
// onto a closed vocabulary (the plugin API's file-fault).
type Fault uint8

// The fault classes.
const (
	// FaultOther is any failure not classified below.
	FaultOther Fault = iota
	// FaultNotFound: the path does not exist.
	FaultNotFound
	// FaultDenied: the path is outside the allowed roots or not permitted.
	FaultDenied
	// FaultTooLarge: the content exceeds a bound.
	FaultTooLarge
	// FaultNotText: the file is binary or not UTF-8.
	FaultNotText
	// FaultConflict: an edit's old text does not occur exactly once, or the
	// file changed since it was read.
	FaultConflict
)

// faultError is an error message with its class, and for FaultTooLarge
// the bound that was exceeded.
type faultError struct {
	fault Fault
	msg   string
	limit int64
}

func (e *faultError) Error() string { return e.msg }

func faultf(f Fault, format string, args ...any) error {
	return &faultError{fault: f, msg: fmt.Sprintf(format, args...)}
}

// tooLarge is a FaultTooLarge error for the bound limit (in bytes).
func tooLarge(limit int64, format string, args ...any) error {
	return &faultError{fault: FaultTooLarge, msg: fmt.Sprintf(format, args...), limit: limit}
}

// Limit returns the bound, in bytes, a FaultTooLarge error exceeded, or 0
// when it is another error or names none.
func (e *Error) Limit() int64 {
	var fe *faultError
	if errors.As(e.Err, &fe) {
		return fe.limit
	}
	return 0
}

// Fault classifies the error.
func (e *Error) Fault() Fault {
	var fe *faultError
	switch {
	case errors.As(e.Err, &fe):
		return fe.fault
	case errors.Is(e.Err, os.ErrNotExist):
		return FaultNotFound
	case errors.Is(e.Err, os.ErrPermission), strings.Contains(e.Err.Error(), "path escapes from parent"):
		return FaultDenied
	}
	return FaultOther
}
