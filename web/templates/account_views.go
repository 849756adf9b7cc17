package templates

// AccountView is the user's own account page: who they are and the
// change-password form.
type AccountView struct {
	Page
	Username    string
	DisplayName string
	IsAdmin     bool
	Errors      map[string]string
}

// SessionsView lists the user's own sessions.
type SessionsView struct {
	Page
	Sessions []SessionRow
}

// SessionRow is one session as its owner sees it.
type SessionRow struct {
	ID       int64
	Created  string
	LastSeen string
	Address  string
	Browser  string // the browser's name, e.g. "Chrome on Windows"
	Agent    string // the raw user agent, shown on hover
	Current  bool
}

// UsersView is the administrators' list of accounts.
type UsersView struct {
	Page
	Users  []UserRow
	Form   NewUserForm
	Errors map[string]string
	// Issued is a password or one-time link to hand to its user, shown
	// once.
	Issued *IssuedCredential
}

// UserRow is one account in the administrators' list.
type UserRow struct {
	ID          int64
	Username    string
	DisplayName string
	IsAdmin     bool
	Disabled    bool
	IsSelf      bool
	Created     string
}

// NewUserForm is the add-account form as sent.
type NewUserForm struct {
	Username    string
	DisplayName string
	Admin       bool
	Credential  string // "link" or "password"
}

// IssuedCredential is what an administrator passes on to a user.
type IssuedCredential struct {
	Username string
	Password string
	Link     string
	// Relative is set when no public URL is configured: Link is then a
	// path on this server, to be put after its address.
	Relative bool
}

// ResetView is the page a one-time link opens.
type ResetView struct {
	Page
	Token    string
	Username string
	Error    string
	Done     bool
}
