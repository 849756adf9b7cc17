package templates

// TokensView is the account's API tokens page.
type TokensView struct {
	Page
	Tokens []TokenRow
	// All lists every account's tokens, for administrators only.
	All []TokenRow
	// Projects are the projects a new token may be limited to.
	Projects []Option
	Form     TokenForm
	Errors   map[string]string
	// NewToken is the token just created, shown once.
	NewToken     string
	NewTokenName string
}

// TokenRow is one token in a list; the token itself is never shown again.
type TokenRow struct {
	ID        int64
	Username  string
	Name      string
	Hint      string
	Scope     string
	Access    string
	Expires   string
	LastUsed  string
	Status    string // active, expired or revoked
	CanRevoke bool
}

// TokenForm is the new-token form.
type TokenForm struct {
	Name     string
	Expires  string
	ReadOnly bool
	Projects map[string]bool
}

// TokenExpiries are the lifetimes the form offers.
var TokenExpiries = []Option{
	{Value: "7d", Label: "7 days"},
	{Value: "30d", Label: "30 days"},
	{Value: "90d", Label: "90 days"},
	{Value: "366d", Label: "a year"},
}
