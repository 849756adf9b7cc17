package domain

import (
	"errors"
	"fmt"
)

// Error codes of domain errors; the web layer maps them to HTTP statuses.
const (
	ENotFound  = "not_found"
	EInvalid   = "invalid"
	EConflict  = "conflict"
	EForbidden = "forbidden"
	EInternal  = "internal"
)

// Error is a domain error with a code and a message fit to show a user.
// Cause, when set, is the underlying error, kept for the log and for
// errors.Is and errors.As; it is never shown to a user.
type Error struct {
	Code    string
	Message string
	Cause   error
}

// Error implements the error interface: the message, then the cause.
func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Message + ": " + e.Cause.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of a domain error, or EInternal for any other
// non-nil error and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if u := classify(err); u != nil {
		return u.Code
	}
	return EInternal
}

// ErrorMessage returns the user-facing message of a domain error, or a
// generic one for any other error so internals never reach a page.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return e.Message
	}
	if u := classify(err); u != nil {
		return u.Message
	}
	return "Something went wrong on our side. The error has been logged."
}

// classifiers describe errors of a storage engine that a user can act on
// (a full disk, a busy database) as domain errors; see RegisterClassifier.
var classifiers []func(error) *Error

// RegisterClassifier adds c to the functions ErrorCode and ErrorMessage ask
// about an error that is not an *Error: c returns the domain error a user
// should see for err, or nil when err is not one it knows. A store
// registers its engine's classifier when its package is initialised.
func RegisterClassifier(c func(error) *Error) { classifiers = append(classifiers, c) }

// classify returns the first registered classifier's answer for err, or nil.
func classify(err error) *Error {
	for _, c := range classifiers {
		if u := c(err); u != nil {
			return u
		}
	}
	return nil
}

// Op names the operation an error came out of, for the log: an internal
// error (a database's, a file's) becomes "op: error", with err kept for
// errors.Is and errors.As. A domain error with a message for users is
// returned as it is, so its message stays as written; nil stays nil.
// Exported store methods pass every error they return through Op, so a
// failure in the log says which operation failed, and where an exported
// method calls another, each adds its name.
func Op(op string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return err
	}
	var inc *Incomplete
	if errors.As(err, &inc) {
		return err
	}
	return &opError{op: op, err: err}
}

// opError is an error with the operation it came out of.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return e.op + ": " + e.err.Error() }

func (e *opError) Unwrap() error { return e.err }

// EUnavailable is the code of an error where the database could not take
// a request now: the disk is full, another process held the write lock
// past the busy timeout, or the file could not be read or written. The
// request may succeed later; nothing of it was written.
const EUnavailable = "unavailable"
