// Package templates holds the templ components of every page and the plain
// view-model structs they take. Components never touch the database; the
// web handlers fill the view models.
package templates

// Page is what every full page carries: its title, who is logged in, the
// CSRF token for forms and a one-time flash message.
type Page struct {
	Title     string
	User      *UserView
	CSRF      string
	Flash     string
	FlashKind string // "ok" or "error"
	// Crumbs lead from the project list to the current page.
	Crumbs []Link
}

// Link is a labelled URL.
type Link struct {
	Label string
	Href  string
}

// UserView is the logged-in account as pages show it.
type UserView struct {
	Username    string
	DisplayName string
	IsAdmin     bool
	// Participant marks a crowd study's participant, whose pages offer
	// no account settings or API tokens.
	Participant bool
}

// LoginView is the login page.
type LoginView struct {
	Page
	Username string
	Next     string
	Error    string
}

// ProjectListView is the list of projects a user may open.
type ProjectListView struct {
	Page
	Projects []ProjectItem
}

// ProjectItem is one project in the list.
type ProjectItem struct {
	Slug        string
	Name        string
	Description string
	Role        string
}

// ProjectView is a project's overview page.
type ProjectView struct {
	Page
	Slug        string
	Name        string
	Description string
	Role        string
	IsLead      bool
	Counts      []Count
	Documents   []DocumentRow
	MoreDocs    int
	Members     []MemberRow
	// Roles are the roles the viewer may give when adding a member.
	Roles []string
}

// Count is a labelled number on an overview.
type Count struct {
	Label  string
	Value  int
	TestID string
}

// DocumentRow is one document in a project's overview.
type DocumentRow struct {
	ExternalID string
	Kind       string
	Language   string
	Domain     string
	Units      int
	Summaries  int
	Sentences  int
	KeyFacts   int
	Topics     int
}

// MemberRow is one project member.
type MemberRow struct {
	ID          int64
	Username    string
	DisplayName string
	Role        string
	// Removable is set when the viewer may take this member out.
	Removable bool
}

// ImportView is the upload page and its outcome.
type ImportView struct {
	Page
	Slug     string
	Format   string
	Formats  []Option
	Errors   []string
	Warnings []string
	Result   []Count
	// Changes lists how a re-import differs from the project: refused
	// (nothing written) or, with Applied, what an update wrote.
	Changes []ImportChange
	// ChangesMore counts the differences found but not listed.
	ChangesMore int
	Applied     bool
	// Update and Relabel are the form's re-import choices.
	Update, Relabel bool
}

// ImportChange is one difference a re-import found.
type ImportChange struct {
	Text string
	// Loud marks a change that deletes annotators' labels or was refused
	// because of them.
	Loud bool
}

// Option is one choice of a select.
type Option struct {
	Value string
	Label string
}

// ErrorView is the friendly page shown for an error status.
type ErrorView struct {
	Page
	Status  int
	Heading string
	Message string
}
