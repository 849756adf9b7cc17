package domain

import (
	"strings"
	"unicode"
)

// User is an account.
type User struct {
	ID          int64
	Username    string
	DisplayName string
	IsAdmin     bool
	Disabled    bool
	CreatedAt   string
}

// MinPasswordLength is the shortest password accepted for an account.
const MinPasswordLength = 10

// ValidateUsername checks a username: 2 to 64 letters, digits, dot, dash
// or underscore.
func ValidateUsername(name string) error {
	if len(name) < 2 || len(name) > 64 {
		return Errorf(EInvalid, "username must be 2 to 64 characters long")
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-", r)) {
			return Errorf(EInvalid, "username may hold only letters, digits, '.', '_' and '-'")
		}
	}
	return nil
}

// ErrBadCredentials is returned by Authenticate for an unknown user, a
// wrong password or a disabled account alike, so a caller cannot tell
// which usernames exist.
var ErrBadCredentials = Errorf(EForbidden, "wrong username or password")
